import { createHmac, timingSafeEqual } from 'node:crypto';

/** What an editor asks of one query's learned re-ranking. */
export type RerankSwitchAction = 'off' | 'on';

/** A query's longest length (as the site-search records store it). */
const MAX_QUERY_LENGTH = 256;

/**
 * The switch's signature: an HMAC of the action and the query keyed with the editor's own token.
 * The shell composes the report as GET pages only, so the switch is a GET form; the signature makes
 * it one no other site can make an editor's browser send (it would need the token), and each switch
 * sets a state (off or on), so sending it twice changes nothing.
 */
export function rerankSwitchSignature(editorToken: string, action: RerankSwitchAction, query: string): string {
  return createHmac('sha256', editorToken).update(`rerank-switch\n${action}\n${query}`).digest('base64url');
}

/** A switch read from the report's address: absent, refused (with why), or one to apply. */
export type RerankSwitchRequest = { kind: 'none' } | { kind: 'refused'; reason: string } | { kind: 'switch'; action: RerankSwitchAction; query: string };

/** Reads `rerank`, `query` and `sig` of the report's address, checked against the editor's token. */
export function readRerankSwitch(params: { rerank?: unknown; query?: unknown; sig?: unknown }, editorToken: string): RerankSwitchRequest {
  if (params.rerank === undefined) return { kind: 'none' };
  const { rerank: action, query, sig } = params;
  if (action !== 'off' && action !== 'on') return { kind: 'refused', reason: 'The switch must be off or on.' };
  if (typeof query !== 'string' || query.length === 0 || query.length > MAX_QUERY_LENGTH) return { kind: 'refused', reason: 'The switch names no query.' };
  const expected = Buffer.from(rerankSwitchSignature(editorToken, action, query));
  const presented = Buffer.from(typeof sig === 'string' ? sig : '');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return { kind: 'refused', reason: 'This switch was not made for your token. Use the buttons of the report.' };
  }
  return { kind: 'switch', action, query };
}
