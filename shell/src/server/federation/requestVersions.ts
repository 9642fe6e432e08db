import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { selectPageVersions, type PageVersionChoices, type SelectionCookieOptions, type VersionSelectionPlugin } from './versionSelection.js';

/** The builds one request renders its remotes with (the selection chain's answer for every configured remote). */
export type RequestVersions = PageVersionChoices;

const scope = new AsyncLocalStorage<RequestVersions>();
const byRequest = new WeakMap<FastifyRequest, RequestVersions>();

/**
 * The versions chosen for the request being handled (page renders read them without the request
 * object: `streamPageWithIslands(page, islands, context)` has none); undefined outside a request or without a chain.
 */
export function currentRequestVersions(): RequestVersions | undefined {
  return scope.getStore();
}

/** The versions chosen for `request`; undefined without a chain. */
export function requestVersionsOf(request: FastifyRequest): RequestVersions | undefined {
  return byRequest.get(request);
}

export interface RequestVersionsOptions {
  /** The selection chain, most general first (canary, then preview). */
  plugins: readonly VersionSelectionPlugin[];
  /** Every configured remote's name. */
  remotes: readonly string[];
  log?: Pick<Console, 'error'>;
  /** The clock the plugins see (`SelectionContext.now`). Default `Date.now`. */
  now?: () => number;
}

/**
 * Runs the version selection chain once per request, for every configured remote, before the
 * page cache looks at the request (a page under a preview or a canary side is never a shared
 * one: no 304 from the live page's ETag, its own `Cache-Control`). Register after
 * `@fastify/cookie` and before the page cache. Not encapsulated.
 */
async function requestVersionsPlugin(app: FastifyInstance, options: RequestVersionsOptions): Promise<void> {
  const log = options.log ?? console;
  const reported = new Set<string>();
  app.addHook('onRequest', (request, reply, done) => {
    const versions = selectPageVersions(
      options.plugins,
      {
        cookies: request.cookies ?? {},
        headers: request.headers,
        url: request.url,
        now: (options.now ?? Date.now)(),
        setCookie: (name: string, value: string, cookie: SelectionCookieOptions) =>
          void reply.setCookie(name, value, { path: cookie.path ?? '/', httpOnly: cookie.httpOnly ?? true, sameSite: cookie.sameSite ?? 'lax', ...(cookie.maxAge !== undefined ? { maxAge: cookie.maxAge } : {}) }),
      },
      options.remotes,
      (plugin, error) => {
        // One line per plugin: a broken rollout file must not flood the log on every request.
        if (reported.has(plugin)) return;
        reported.add(plugin);
        log.error(`[shell] version selection plugin "${plugin}" failed; its choice is skipped`, error);
      },
    );
    byRequest.set(request, versions);
    scope.run(versions, done);
  });
}

export const requestVersions = fastifyPlugin(requestVersionsPlugin, { name: 'khs-request-versions', dependencies: ['@fastify/cookie'] });
