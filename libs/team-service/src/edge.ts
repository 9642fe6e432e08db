// What the shell (the edge) and the team services agree on for requests it forwards. The edge checks
// CSRF and rate limits, derives the visitor's id from its signed cookie, and forwards the id in a
// header; it never forwards the visitor's cookies. A service believes that header only on a request
// that carries the edge key, which only the edge can compute (it is derived from COOKIE_SECRET).
// No Fastify here: the shell and the services both import it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The visitor id the edge derived for the route's purpose (e.g. one voter per browser). */
export const VISITOR_ID_HEADER = 'x-khs-visitor-id';
/** Origin of absolute links the edge resolved for the request (`PUBLIC_BASE_URL` or an allowed host). */
export const LINK_ORIGIN_HEADER = 'x-khs-link-origin';
/** Proves a request came through the edge: `edgeKeyOf(COOKIE_SECRET)`. */
export const EDGE_KEY_HEADER = 'x-khs-edge-key';

/**
 * The public development value of `COOKIE_SECRET`, used by the shell and every service when it is
 * unset (they must agree). Never for a real deployment; both log a warning when they use it.
 */
export const DEVELOPMENT_COOKIE_SECRET = 'khs-dev-cookie-secret-change-me-in-production';

/** The edge key for `cookieSecret`: an HMAC of it, so the secret itself never travels to a service. */
export function edgeKeyOf(cookieSecret: string): string {
  return createHmac('sha256', cookieSecret).update('khs-edge-proxy-key').digest('base64url');
}

/** Whether `presented` (the request's edge-key header) is the edge key: compared in constant time. */
export function isEdgeKey(presented: string | string[] | undefined, edgeKey: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(edgeKey);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The visitor id a forwarded request carries, or undefined unless it came through the edge (valid
 * edge key) with a well-formed id.
 */
export function trustedVisitorId(headers: Record<string, string | string[] | undefined>, edgeKey: string): string | undefined {
  if (!isEdgeKey(headers[EDGE_KEY_HEADER], edgeKey)) return undefined;
  const id = headers[VISITOR_ID_HEADER];
  return typeof id === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(id) ? id : undefined;
}

/**
 * The link origin a forwarded request carries (an http(s) origin, optionally with a path, no
 * trailing slash), or undefined unless it came through the edge with a well-formed one.
 */
export function trustedLinkOrigin(headers: Record<string, string | string[] | undefined>, edgeKey: string): string | undefined {
  if (!isEdgeKey(headers[EDGE_KEY_HEADER], edgeKey)) return undefined;
  const origin = headers[LINK_ORIGIN_HEADER];
  if (typeof origin !== 'string') return undefined;
  try {
    const url = new URL(origin);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) return undefined;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** The CSRF token the edge made for a page it composes from a service's fragment (e.g. the contact form's hidden field). */
export const FORM_TOKEN_HEADER = 'x-khs-form-token';

/** The form token a request from the edge carries, or undefined (not from the edge, or malformed). */
export function trustedFormToken(headers: Record<string, string | string[] | undefined>, edgeKey: string): string | undefined {
  if (!isEdgeKey(headers[EDGE_KEY_HEADER], edgeKey)) return undefined;
  const token = headers[FORM_TOKEN_HEADER];
  return typeof token === 'string' && /^[A-Za-z0-9_-]{8,256}$/.test(token) ? token : undefined;
}
