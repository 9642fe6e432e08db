import type { IncomingHttpHeaders } from 'node:http';

/**
 * Which browser pages may read search answers (CORS) and who sent a request: a server, a page of
 * an allowed origin, or any other page. A page on another origin can send a `text/plain` POST with
 * a key in the query string without a preflight, so CORS alone does not protect the write routes;
 * the server looks at `Origin` and `Sec-Fetch-Site`, which a page cannot forge. Server-to-server
 * callers (the shell's indexer, the `typesense` client, Node's `fetch`) send neither.
 */

/**
 * Who sent a request: `server` (neither a foreign `Origin` nor page fetch metadata), `allowed-page`
 * (a page whose `Origin` is an allowed one), `other-page` (any other page, or page metadata without
 * an `Origin`: its origin is unknown).
 */
export type RequestSender = 'server' | 'allowed-page' | 'other-page';

/** Kinds of route: searches (CORS for the allowed origins), the health check, and everything else (admin). */
export type RouteKind = 'search' | 'health' | 'admin';

/** `Sec-Fetch-Site` values of a request a browser made on its own (typed address) or from the server's own origin. */
const OWN_SITE_FETCH = new Set(['same-origin', 'none']);

/**
 * The normalised origin (`scheme://host[:port]`, lower case, default port dropped) of `value`,
 * or undefined when it is no http(s) origin (`null`, a path, garbage).
 */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * `SEARCH_ALLOWED_ORIGINS`: a comma-separated list of origins (`http://127.0.0.1:4300,https://example.org`).
 * Unset or empty: no origin (no browser page may read answers across origins).
 * @throws Error naming the entry that is no http(s) origin.
 */
export function parseAllowedOrigins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const origin = normalizeOrigin(entry);
      if (!origin) throw new Error(`SEARCH_ALLOWED_ORIGINS: "${entry}" is not an http(s) origin`);
      return origin;
    });
}

/** The route a request goes to: the two search routes, `GET /health`, or an admin route. */
export function routeKind(method: string, segments: readonly string[]): RouteKind {
  const [first, , third, fourth] = segments;
  if (segments.length === 1 && first === 'health' && (method === 'GET' || method === 'HEAD')) return 'health';
  if (segments.length === 1 && first === 'multi_search' && (method === 'POST' || method === 'OPTIONS')) return 'search';
  const documentSearch = segments.length === 4 && first === 'collections' && third === 'documents' && fourth === 'search';
  if (documentSearch && (method === 'GET' || method === 'OPTIONS')) return 'search';
  return 'admin';
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request's `Origin`, normalised, when it is an allowed one (its CORS answers name it). */
export function allowedRequestOrigin(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): string | undefined {
  const origin = header(headers, 'origin');
  if (origin === undefined) return undefined;
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowed.has(normalized) ? normalized : undefined;
}

/**
 * True when a browser sent the request from a page: `Origin` present and not an allowed origin
 * (`null` included), or `Sec-Fetch-Site` other than `same-origin`/`none` (`same-site` too: the
 * site's own pages are another origin than this server; Chromium sends it from `localhost:3000`
 * to `localhost:8108`). Requests without either header (server-to-server calls) are not.
 */
export function isForeignBrowserRequest(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): boolean {
  const origin = header(headers, 'origin');
  if (origin !== undefined && allowedRequestOrigin(headers, allowed) === undefined) return true;
  const fetchSite = header(headers, 'sec-fetch-site');
  return fetchSite !== undefined && !OWN_SITE_FETCH.has(fetchSite.trim().toLowerCase());
}

/** Who sent the request (see `RequestSender`). */
export function requestSender(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): RequestSender {
  if (!isForeignBrowserRequest(headers, allowed)) return 'server';
  return allowedRequestOrigin(headers, allowed) !== undefined ? 'allowed-page' : 'other-page';
}
