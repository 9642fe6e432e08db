import { createHash, timingSafeEqual } from 'node:crypto';

/** Shortest editor token accepted (a token anyone could guess is no protection). */
export const MIN_EDITOR_TOKEN_LENGTH = 16;
/** The realm browsers show when they ask for the editor token (HTTP Basic: any user name, the token as password). */
export const EDITOR_REALM = 'khs-editors';

/** Why a request may not read the report. */
export type EditorAccess = 'granted' | 'missing' | 'wrong';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The tokens that open the editors' report: `EDITOR_TOKEN` and, if set, the operators'
 * `OPERATOR_TOKEN` (the same people often hold both). Each needs `MIN_EDITOR_TOKEN_LENGTH` characters.
 * @returns the tokens (empty: the report is off)
 * @throws Error naming the variable when one is too short
 */
export function editorTokensFromEnv(env: Record<string, string | undefined>): string[] {
  const tokens: string[] = [];
  for (const name of ['EDITOR_TOKEN', 'OPERATOR_TOKEN']) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (value.length < MIN_EDITOR_TOKEN_LENGTH) throw new Error(`${name} must be at least ${MIN_EDITOR_TOKEN_LENGTH} characters`);
    tokens.push(value);
  }
  return tokens;
}

/** The token an `Authorization` header presents: `Bearer <token>`, or Basic with the token as password. */
export function presentedToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme, value = ''] = authorization.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') return value || undefined;
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** Whether `authorization` presents one of `tokens` (compared in constant time). */
export function editorAccess(authorization: string | undefined, tokens: readonly string[]): EditorAccess {
  const token = presentedToken(authorization);
  if (token === undefined) return 'missing';
  const presented = digest(token);
  return tokens.some((expected) => timingSafeEqual(presented, digest(expected))) ? 'granted' : 'wrong';
}
