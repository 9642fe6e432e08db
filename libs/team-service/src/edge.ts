// What the shell (the edge) and the team services agree on for requests it forwards. The edge checks
// CSRF and rate limits, derives the visitor's id from its signed cookie, and forwards the id in a
// header; it never forwards the visitor's cookies. A service believes that header only on a request
// that carries its edge key: a secret of its own (one per service, the stack registry's
// `edgeKeyEnv`), which the edge holds for every service and no service can derive from anything it
// has — not from the shell's COOKIE_SECRET, which no service receives.
// No Fastify here: the shell and the services both import it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The visitor id the edge derived for the route's purpose (e.g. one voter per browser). */
export const VISITOR_ID_HEADER = 'x-khs-visitor-id';
/** Origin of absolute links the edge resolved for the request (`PUBLIC_BASE_URL` or an allowed host). */
export const LINK_ORIGIN_HEADER = 'x-khs-link-origin';
/** Proves a request came through the edge: the service's own edge key. */
export const EDGE_KEY_HEADER = 'x-khs-edge-key';

/**
 * The public development value of `COOKIE_SECRET`, used by the shell and every service when it is
 * unset (they must agree). Never for a real deployment; both log a warning when they use it.
 */
export const DEVELOPMENT_COOKIE_SECRET = 'khs-dev-cookie-secret-change-me-in-production';

/**
 * The public development edge key of `service`, used by the shell and the service when its variable
 * (registry `edgeKeyEnv`) is unset, so a shell and services started by hand on loopback still
 * agree. Anyone can read it here: a service refuses to listen beyond loopback with it, and `npm
 * start` never uses it (it generates a key per service, tooling/stack `secrets.mjs`).
 */
export function developmentEdgeKey(service: string): string {
  return `khs-development-edge-key-of-the-${service}-service`;
}

/** The shortest edge key a service accepts from its environment. */
export const MIN_EDGE_KEY_LENGTH = 32;

/**
 * A key derived from any string (an HMAC of it): for tests and benchmarks that need a well-formed
 * key. The site's edge keys are independent random secrets, never derived from COOKIE_SECRET.
 */
export function edgeKeyOf(secret: string): string {
  return createHmac('sha256', secret).update('khs-edge-proxy-key').digest('base64url');
}

/** Whether `host` (a listen address) is reachable from this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare === '::ffff:127.0.0.1';
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
