// Cacheable pages (issue 27): which answers a shared cache (nginx, a CDN) may keep, for how long,
// and how it learns that a page changed. Open-source nginx has no purge, so the design is short
// freshness plus revalidation: `s-maxage` keeps a copy a few seconds, `stale-while-revalidate`
// lets the proxy answer from it while it refreshes in the background, `stale-if-error` keeps the
// site up when every shell fails, and a weak `ETag` keyed on the page version (content version,
// the live build of every remote, the shell's own client build) turns most refreshes into a 304
// that renders nothing. A change (a publish, a deploy, a promote, a rollback/abort) changes the
// version, so the next refresh gets the new page: visitors see it within `PAGE_CACHE.sMaxAgeSeconds`
// plus the shell's manifest poll (`REMOTE_REVALIDATE_MS`) plus one background refresh.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** The one place the page cache lifetimes live (seconds); documented in the shell README, "Cacheable pages". */
export const PAGE_CACHE = {
  /** How long a shared cache serves a page without asking the shell. */
  sMaxAgeSeconds: 5,
  /** After that, how long it may still answer with its copy while it refreshes it in the background. */
  staleWhileRevalidateSeconds: 30,
  /** How long it may answer with its copy when the shells fail (5xx, unreachable). */
  staleIfErrorSeconds: 24 * 60 * 60,
  /**
   * How long a shared cache may serve a page streamed before its islands were all rendered
   * (`STREAMED_PAGE_CACHE_CONTROL`): it may still end with a placeholder, so briefly, never revalidated.
   */
  streamedSMaxAgeSeconds: 2,
} as const;

/**
 * `Cache-Control` of a shared-cacheable page. `max-age=0`: browsers revalidate every time (a cheap
 * 304 from the proxy by the ETag), so a browser never shows a page older than the proxy's.
 */
export const SHARED_PAGE_CACHE_CONTROL =
  `public, max-age=0, s-maxage=${PAGE_CACHE.sMaxAgeSeconds}, ` +
  `stale-while-revalidate=${PAGE_CACHE.staleWhileRevalidateSeconds}, stale-if-error=${PAGE_CACHE.staleIfErrorSeconds}`;

/**
 * `Cache-Control` of a shared page whose head went out before every island rendered (the page
 * streamed past the head budget): an island may still end as its placeholder, which the headers
 * can no longer say. So a short shared lifetime, no `stale-while-revalidate` and no ETag (a 304
 * would keep a degraded copy as long as the page version holds); nginx does not keep it at all
 * (it passes a streamed answer on unbuffered, `X-Accel-Buffering: no`, and caches only buffered ones).
 */
export const STREAMED_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${PAGE_CACHE.streamedSMaxAgeSeconds}, stale-if-error=${PAGE_CACHE.staleIfErrorSeconds}`;

/** `Cache-Control` of every other answer that sets none: it may differ per visitor, no shared cache keeps it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-cache';

/**
 * `Vary` of a shared-cacheable page: only the encoding (compression). Nothing else of the request
 * changes the bytes (no cookie, no language, no client address); the host is part of any proxy's
 * cache key already (the nginx config keys on `$host`).
 */
export const SHARED_PAGE_VARY = 'Accept-Encoding';

/** Response headers a shared-cacheable page must never carry (they are per visitor). */
export const PERSONAL_RESPONSE_HEADERS = ['set-cookie', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `'shared'`: the route's successful GET answers are the same for every visitor and may be kept
     * by shared caches (`SHARED_PAGE_CACHE_CONTROL`, an ETag of the page version). Default: private.
     */
    pageCache?: 'shared';
  }
}

/** What a page's bytes depend on besides its address. */
export interface PageVersionSources {
  /** The shell's own client build (the runtime URL carries its hash). */
  shellBuild: string;
  /** Build version each remote renders with now (`ServerFederation.liveBuildVersions()`: read for each page, it must be cheap). Default: none. */
  remoteBuilds?: () => ReadonlyArray<{ remote: string; buildVersion?: string | undefined }>;
  /**
   * Version of the content, the same in every instance that reads the same content (the live
   * store's hash of the public articles' content hashes, which a schedule coming due changes too),
   * so instances tag a page alike without talking. Read for each page (it must be cheap).
   * Default: this process's `contentChanged()` count (instances then disagree).
   */
  contentVersion?: () => string;
  /**
   * Versions of the data the server-rendered islands read (`IslandServerModule.dataVersion`, for
   * example what a search index held at its last update; `ServerIslands.dataVersions()`). Read for
   * each page (it must be cheap). Default: none.
   */
  dataVersions?: () => readonly string[];
}

/**
 * The version every shared-cacheable page is tagged with. `contentChanged()` is the purge call
 * for content: call it after a publish, an unpublish or a scheduled article going live (the shell
 * calls it on its content store's `onChange`).
 */
export class PageVersion {
  private contentGeneration = 0;

  constructor(private readonly sources: PageVersionSources) {}

  /**
   * Marks every page as changed: shared caches get the new page at their next refresh (≤ `s-maxage`).
   * With a `contentVersion` source the tag follows that source instead (a per-process count would
   * make instances disagree), so this only counts for a content store without a version.
   */
  contentChanged(): void {
    this.contentGeneration += 1;
  }

  /** Hash of the content version, the remotes' live builds, their islands' data versions and the shell build (cheap: no rendering). */
  current(): string {
    const content = this.sources.contentVersion ? `content ${this.sources.contentVersion()}` : `generation ${this.contentGeneration}`;
    const builds = (this.sources.remoteBuilds?.() ?? []).map((build) => `${build.remote}@${build.buildVersion ?? '-'}`).sort();
    const data = (this.sources.dataVersions?.() ?? []).map((version) => `data ${version}`);
    return createHash('sha256')
      .update([this.sources.shellBuild, content, ...builds, ...data].join('\n'))
      .digest('base64url')
      .slice(0, 22);
  }
}

/** Weak ETag of one page (weak: the same page compressed differently is the same entity). */
export function pageEtag(version: string, url: string): string {
  return `W/"${createHash('sha256').update(version).update('\n').update(url).digest('base64url').slice(0, 27)}"`;
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks for it). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

function isSharedPageRequest(request: FastifyRequest): boolean {
  return request.routeOptions.config?.pageCache === 'shared' && (request.method === 'GET' || request.method === 'HEAD');
}

/** Whether an answer about to be sent carries something of one visitor. */
export function carriesPersonalHeaders(reply: FastifyReply): boolean {
  return PERSONAL_RESPONSE_HEADERS.some((name) => reply.hasHeader(name));
}

export interface PageCacheOptions {
  version: PageVersion;
  /**
   * The `Cache-Control` a request's pages must carry because they depend on the visitor (a
   * preview: `private, no-store`; a canary side: `private`), or undefined. Such a page gets no
   * ETag and no 304 (its bytes are not the shared page's), and no shared cache keeps it.
   * Default: none (every page of a shared route is shared).
   */
  personalCacheControl?: (request: FastifyRequest) => string | undefined;
}

const etagOf = new WeakMap<FastifyRequest, string>();
const degraded = new WeakSet<FastifyReply>();
const streamed = new WeakSet<FastifyReply>();

/**
 * Marks a shared page as degraded (an island holds its placeholder because its remote failed): it
 * goes out `private, no-cache` without an ETag, so no proxy keeps it or turns later refreshes into
 * 304s for it; a proxy that holds the last good copy goes on serving that while it may
 * (`stale-while-revalidate`), then visitors get fresh renders until the remote is back.
 */
export function markPageDegraded(reply: FastifyReply): void {
  degraded.add(reply);
}

/** Marks a shared page as streamed past its head budget: `STREAMED_PAGE_CACHE_CONTROL`, no ETag. */
export function markPageStreamed(reply: FastifyReply): void {
  streamed.add(reply);
}

/** How a page's head went out (`federation/islandCollector.tsx`'s `PageStart`). */
export interface PageStartFacts {
  streamed: boolean;
  degraded: boolean;
  failingRemotes: readonly string[];
}

/**
 * The cache rule of a page, decided when its headers go, before its last island may be known
 * (shell README, "Streamed pages"):
 * 1. one of its islands' remotes is known to be failing, or an island already failed: `private`
 *    from the start, no ETag (a degraded page, as before);
 * 2. every island rendered within the head budget: the whole page, shared with its ETag (304s);
 * 3. streamed past the head budget: `STREAMED_PAGE_CACHE_CONTROL`, no ETag.
 * A streamed page also gets `X-Accel-Buffering: no`: nginx passes each chunk on as it comes.
 */
export function markPageStart(reply: FastifyReply, start: PageStartFacts): void {
  if (start.streamed) reply.header('x-accel-buffering', 'no');
  if (start.degraded || start.failingRemotes.length > 0) markPageDegraded(reply);
  else if (start.streamed) markPageStreamed(reply);
}

async function pageCachePlugin(app: FastifyInstance, options: PageCacheOptions): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (!isSharedPageRequest(request) || options.personalCacheControl?.(request)) return;
    const etag = pageEtag(options.version.current(), request.url);
    etagOf.set(request, etag);
    // The proxy's (or a browser's) copy is still the page: answer 304 without rendering.
    if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
      return reply.code(304).header('etag', etag).header('cache-control', SHARED_PAGE_CACHE_CONTROL).header('vary', SHARED_PAGE_VARY).send();
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const personal = options.personalCacheControl?.(request);
    if (personal && isSharedPageRequest(request)) {
      reply.header('cache-control', personal);
      reply.removeHeader('etag');
      return payload;
    }
    const etag = etagOf.get(request);
    if (etag && reply.statusCode === 200 && !carriesPersonalHeaders(reply) && !degraded.has(reply) && streamed.has(reply)) {
      reply.header('cache-control', STREAMED_PAGE_CACHE_CONTROL);
      reply.removeHeader('etag');
    } else if (etag && reply.statusCode === 200 && !carriesPersonalHeaders(reply) && !degraded.has(reply)) {
      // `Vary: Accept-Encoding` comes from the compression hook, which runs after this one.
      reply.header('cache-control', SHARED_PAGE_CACHE_CONTROL).header('etag', etag);
    } else if (etag && reply.statusCode !== 304) {
      // An error page, a degraded page, or something personal slipped in: never shared.
      reply.header('cache-control', reply.getHeader('cache-control') === 'no-store' ? 'no-store' : PRIVATE_CACHE_CONTROL);
      reply.removeHeader('etag');
    } else if (!reply.hasHeader('cache-control')) {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
    }
    return payload;
  });
}

/**
 * Cache headers for every answer: routes marked `config: { pageCache: 'shared' }` get the shared
 * policy and an ETag (304 when it matches, before rendering); every other answer without its own
 * `Cache-Control` gets `private, no-cache`. Registered without encapsulation (covers every route).
 */
export const pageCache = fastifyPlugin(pageCachePlugin, { name: 'khs-page-cache' });
