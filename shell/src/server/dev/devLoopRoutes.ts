// The shell's side of a team's dev loop (`npm run dev -w <remote>`, tooling/stack/devSite.mjs).
// Dev-only: nothing here is registered unless KHS_DEV_LOOP_TOKEN is set (only the dev starter sets
// it, with a fresh token per run); in production the paths answer the site's 404 like any unknown URL.
// - `POST /__khs-dev/remotes/<remote>/rebuilt` (the dev starter, with the token): the remote's dev
//   build was deployed to its dev origin; the shell reloads that remote now instead of at its next
//   manifest poll (REMOTE_REVALIDATE_MS), warms the new server build up, then tells the pages.
// - `GET /__khs-dev/events` (the open pages, same origin): server-sent `rebuilt` events with
//   `{ remote, buildVersion, manifestUrl }`, once the shell renders with that build; the remote's dev build
//   swaps its islands in place on it (tooling/rspack-preset/dev/hotIslandMount.mjs).
import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { DEV_EVENTS_PATH, DEV_LOOP_TOKEN_ENV } from '@khs/stack/devProtocol';

/** Keeps an idle event stream open through proxies and tells a closed one from an open one. */
const KEEPALIVE_MS = 15_000;

export interface DevLoopOptions {
  /** The token the rebuild notice must carry (`Authorization: Bearer <token>`). */
  token: string;
  /** The remotes the shell renders (a notice for another one is a 404). */
  remotes: readonly string[];
  /**
   * Loads the remote's current build now and resolves once the server renders with it: its
   * `buildVersion`, and the manifest URL it came from (the live one, which a page's swap loads: the
   * page itself may have been pinned to another build's manifest).
   */
  refreshRemote: (remote: string) => Promise<{ buildVersion?: string; manifestUrl?: string }>;
}

/** The dev loop's token from the environment (`KHS_DEV_LOOP_TOKEN`); undefined (dev routes off) when unset or blank. */
export function readDevLoopToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env[DEV_LOOP_TOKEN_ENV]?.trim();
  return token ? token : undefined;
}

function sameToken(given: string | undefined, expected: string): boolean {
  const prefix = 'Bearer ';
  if (!given?.startsWith(prefix)) return false;
  const a = Buffer.from(given.slice(prefix.length));
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The dev routes (register only when `readDevLoopToken` gives a token). */
export async function devLoopRoutes(app: FastifyInstance, options: DevLoopOptions): Promise<void> {
  const streams = new Set<ServerResponse>();
  const send = (event: string, data: unknown) => {
    for (const stream of streams) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const keepalive = setInterval(() => {
    for (const stream of streams) stream.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();
  app.addHook('onClose', async () => {
    clearInterval(keepalive);
    for (const stream of streams) stream.end();
    streams.clear();
  });

  app.get(DEV_EVENTS_PATH, (request, reply) => {
    reply.hijack();
    const stream = reply.raw;
    stream.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    stream.write(': khs dev loop\n\n');
    streams.add(stream);
    request.raw.on('close', () => streams.delete(stream));
  });

  // The token, not a visitor's cookie, authorises it: no CSRF token (the dev starter has none).
  app.post<{ Params: { remote: string } }>('/__khs-dev/remotes/:remote/rebuilt', { config: { csrfExempt: true } }, async (request, reply) => {
    if (!sameToken(request.headers.authorization, options.token)) {
      return reply.code(401).header('cache-control', 'no-store').send({ error: 'the dev loop token is missing or wrong', code: 'dev-loop-token' });
    }
    const { remote } = request.params;
    if (!options.remotes.includes(remote)) {
      return reply.code(404).header('cache-control', 'no-store').send({ error: `no remote "${remote}" is configured`, code: 'unknown-remote' });
    }
    const { buildVersion, manifestUrl } = await options.refreshRemote(remote);
    send('rebuilt', { remote, buildVersion, manifestUrl });
    return reply.header('cache-control', 'no-store').send({ remote, buildVersion, pages: streams.size });
  });
}

/**
 * The dev routes as a shell feature when the environment turns them on (`KHS_DEV_LOOP_TOKEN`),
 * else none. "Refresh now" is one manifest poll (`revalidate`: a changed manifest swaps the build)
 * plus the warm-up of the remote's server modules, awaited.
 */
export function devLoopFeature(
  federation: { revalidate(): Promise<void>; preload(onError: undefined, remote: string): Promise<void>; pollStates(): { remote: string; buildVersion?: string; manifestUrl?: string }[] } | undefined,
  remotes: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { plugin: typeof devLoopRoutes; options: DevLoopOptions }[] {
  const token = readDevLoopToken(env);
  if (!token) return [];
  const refreshRemote = async (remote: string) => {
    if (!federation) return {};
    await federation.revalidate();
    await federation.preload(undefined, remote);
    const state = federation.pollStates().find((candidate) => candidate.remote === remote);
    return { buildVersion: state?.buildVersion, manifestUrl: state?.manifestUrl };
  };
  return [{ plugin: devLoopRoutes, options: { token, remotes, refreshRemote } }];
}
