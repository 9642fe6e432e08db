import type { FastifyRequest } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS, SERVICE_FORM_PAGE_PATHS, SERVICE_PAGE_PATHS, type CallUrls } from 'contracts';
import type { ProxiedRoute } from './serviceProxy.js';
import { isPositiveInteger, isRecord, parseRateLimitDeclaration, unknownKeys, WEEK_MS, type EdgeRateLimitDeclaration } from './edgeRateLimitDeclaration.js';

export type { EdgeRateLimitDeclaration } from './edgeRateLimitDeclaration.js';

/**
 * A team service's declaration of what the edge does with its calls (its slice's
 * `slice.json`'s `service.edgePolicy`, named by the stack registry and read at start). The edge applies it
 * without knowing the service: no team's name, limit or identity purpose is written in the shell.
 */
export interface EdgePolicy {
  /** What the file is, for people. */
  description?: string;
  routes: EdgeRouteDeclaration[];
  /** Pages the shell composes from the service's `PageFragment` at the same path. Default none. */
  pages?: EdgePageDeclaration[];
  /** Form pages: content composed like `pages`, and a multipart post the edge checks, then streams to the service. Default none. */
  formPages?: EdgeFormPageDeclaration[];
}

/**
 * A form page (contracts' `SERVICE_FORM_PAGE_PATHS[page]`): `GET` composes the service's content with
 * a fresh form token; `POST` (multipart, the token in its first field `FORM_TOKEN_FIELD`) is checked
 * at the edge from its headers, then its token before any file is read, then streamed on.
 */
export interface EdgeFormPageDeclaration {
  page: keyof typeof SERVICE_FORM_PAGE_PATHS;
  /** Largest post (bytes), by its declared length and as it streams; the service enforces the same. */
  maxBodyBytes: number;
  maxBodyBytesWhy?: string;
  /** How long the upload may take to arrive (ms), then the 408 page. */
  uploadTimeoutMs: number;
  /** Posts of one client address streaming at once (429 page beyond). */
  inFlightPerAddress: number;
  /** Connections the edge keeps to each instance (a slow upload holds one). */
  connectionsPerUpstream: number;
  /** Posts per client address and window (429 page beyond). */
  rateLimit: { max: number; windowMs: number; why?: string };
  /** The page shown with 503/504 when the service is down or too slow. */
  unavailable: { title: string; pageClass?: string; heading: string; text: string };
  /** The form page may be listed by search engines, with this meta description. Default: `noindex`. */
  index?: { description: string };
  /** Text of a link to the form page in the site's footer (`SITE_FOOTER_LINKS`). Default: no link. */
  footerLink?: string;
}

/** Largest post a form page may declare (streamed to the service, never held whole). */
export const MAX_DECLARED_FORM_BYTES = 32 * 1024 * 1024;

/**
 * A page the service renders as a `PageFragment` at the page's own path (contracts'
 * `SERVICE_PAGE_PATHS[page]`, or the `path` the slice declares): the shell wraps it in the site
 * layout with the status the service gave; a 404 from the service is the site's 404 page.
 */
export interface EdgePageDeclaration {
  /** The page's name: one in contracts' `SERVICE_PAGE_PATHS`, or the slice's own name for a page at `path`. */
  page: string;
  /**
   * Where a page of the slice's own is (`/proof`, `/things/{id}`), so a slice adds a page without a
   * change to contracts or the shell. Default: contracts' `SERVICE_PAGE_PATHS[page]`.
   */
  path?: string;
  /** `X-Robots-Tag` of the page (e.g. `noindex` for private links). Default none. */
  robots?: 'noindex';
  /**
   * The page is the same for everyone with its address (a share is a snapshot): shared caches may
   * keep it (the shell's page cache policy, `delivery/pageCache.ts`). Default false: `private`.
   */
  sharedCache?: boolean;
  /** The page's heading and text when the service is down or too slow (503). */
  unavailable: { title: string; text: string };
  /**
   * The page is behind a token the service checks (an editors' page): the edge forwards the
   * visitor's `Authorization` header to the service and the service's `WWW-Authenticate` challenge
   * back, nothing keeps the page (`no-store`), and tries are limited per address as the operators'
   * view is. Default false: the header stays at the edge.
   */
  forwardsAuthorization?: boolean;
}

/** One call the edge forwards to the service, at the path contracts give it (`DEFAULT_CALL_URLS[call]`). */
export interface EdgeRouteDeclaration {
  /** The call's name in contracts' `DEFAULT_CALL_URLS`: its path is written there once. */
  call: keyof CallUrls;
  method: 'GET' | 'POST';
  /** Largest body the edge reads and forwards (bytes; 413 beyond, chunked or not). Default: the shell's body limit (1 MiB). */
  bodyLimitBytes?: number;
  /** Whether a POST needs the visitor's CSRF token (`X-CSRF-Token`). Default `true`; `false` needs `csrfExemptBecause` and a `rateLimit`. */
  csrf?: boolean;
  /** Why the call may come without a token (only beacons and the like). */
  csrfExemptBecause?: string;
  /** Purpose of the visitor id the edge derives from the signed cookie and forwards (`x-khs-visitor-id`). Default: none forwarded. */
  visitorIdPurpose?: string;
  /** Forward the origin absolute links must use (`x-khs-link-origin`). Default `false`. */
  linkOrigin?: boolean;
  /** Requests per client address and window, optionally counted apart per value of one path parameter. Default: not limited. */
  rateLimit?: EdgeRateLimitDeclaration;
}

/** A malformed edge policy: the shell refuses to start with it, naming the service and the problem. */
export class EdgePolicyError extends Error {
  constructor(service: string, problem: string) {
    super(`The ${service} service's edge policy ${problem}`);
    this.name = 'EdgePolicyError';
  }
}

/** Largest body limit a declaration may ask for: proxied bodies are read whole at the edge. */
export const MAX_DECLARED_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
const ROUTE_KEYS = new Set(['call', 'method', 'bodyLimitBytes', 'csrf', 'csrfExemptBecause', 'visitorIdPurpose', 'linkOrigin', 'rateLimit']);
const PAGE_KEYS = new Set(['page', 'path', 'robots', 'sharedCache', 'unavailable', 'forwardsAuthorization']);
/** A page path a slice may declare: lower-case segments or `{parameter}`s, never under the calls' `/api/` or the site's own `/__…`. */
const OWN_PAGE_PATH = /^(?!\/api\/|\/__)(\/([a-z0-9][a-z0-9-]*|\{[a-zA-Z][a-zA-Z0-9]*\}))+$/;

/** The path of a declared page (its `path`, else contracts' `SERVICE_PAGE_PATHS[page]`). */
export function servicePagePath(declared: EdgePageDeclaration): string {
  return declared.path ?? SERVICE_PAGE_PATHS[declared.page as keyof typeof SERVICE_PAGE_PATHS];
}


function parseRoute(value: unknown, index: number, service: string): EdgeRouteDeclaration {
  const fail = (problem: string) => new EdgePolicyError(service, `route ${index}: ${problem}`);
  if (!isRecord(value)) throw fail('is not an object');
  const extra = unknownKeys(value, ROUTE_KEYS);
  if (extra.length > 0) throw fail(`has unknown keys ${extra.join(', ')}`);
  const { call, method, bodyLimitBytes, csrf, csrfExemptBecause, visitorIdPurpose, linkOrigin, rateLimit } = value;
  if (typeof call !== 'string' || !Object.hasOwn(DEFAULT_CALL_URLS, call)) throw fail(`names no call of contracts' DEFAULT_CALL_URLS: ${JSON.stringify(call)}`);
  if (method !== 'GET' && method !== 'POST') throw fail(`method must be GET or POST, got ${JSON.stringify(method)}`);
  if (bodyLimitBytes !== undefined && !isPositiveInteger(bodyLimitBytes, MAX_DECLARED_BODY_LIMIT_BYTES)) throw fail(`bodyLimitBytes must be an integer from 1 to ${MAX_DECLARED_BODY_LIMIT_BYTES}`);
  if (csrf !== undefined && typeof csrf !== 'boolean') throw fail('csrf must be true or false');
  if (linkOrigin !== undefined && typeof linkOrigin !== 'boolean') throw fail('linkOrigin must be true or false');
  if (visitorIdPurpose !== undefined && (typeof visitorIdPurpose !== 'string' || !/^[a-z][a-z0-9-]{0,63}$/.test(visitorIdPurpose))) throw fail('visitorIdPurpose must be a lower-case word (a-z, 0-9, -)');
  const route: EdgeRouteDeclaration = { call: call as keyof CallUrls, method };
  if (bodyLimitBytes !== undefined) route.bodyLimitBytes = bodyLimitBytes;
  if (visitorIdPurpose !== undefined) route.visitorIdPurpose = visitorIdPurpose as string;
  if (linkOrigin) route.linkOrigin = true;
  if (rateLimit !== undefined) route.rateLimit = parseRateLimitDeclaration(rateLimit, DEFAULT_CALL_URLS[route.call], fail);
  if (csrf === false) {
    if (method !== 'POST') throw fail('csrf: false only means something for a POST');
    if (typeof csrfExemptBecause !== 'string' || csrfExemptBecause.trim().length < 10) throw fail('csrf: false needs csrfExemptBecause saying why');
    // A call anyone's page can send without a token is bounded per address instead.
    if (!route.rateLimit) throw fail('csrf: false needs a rateLimit');
    route.csrf = false;
    route.csrfExemptBecause = csrfExemptBecause;
  } else if (csrfExemptBecause !== undefined) {
    throw fail('csrfExemptBecause only goes with csrf: false');
  }
  return route;
}

function parsePage(value: unknown, index: number, service: string): EdgePageDeclaration {
  const fail = (problem: string) => new EdgePolicyError(service, `page ${index}: ${problem}`);
  if (!isRecord(value)) throw fail('is not an object');
  const extra = unknownKeys(value, PAGE_KEYS);
  if (extra.length > 0) throw fail(`has unknown keys ${extra.join(', ')}`);
  const { page, path, robots, sharedCache, unavailable, forwardsAuthorization } = value;
  if (path !== undefined) {
    if (typeof page !== 'string' || !/^[a-z][a-zA-Z0-9]{1,40}$/.test(page)) throw fail(`page must be a name (a-z first, letters and digits), got ${JSON.stringify(page)}`);
    if (Object.hasOwn(SERVICE_PAGE_PATHS, page)) throw fail(`"${page}" is a page of contracts' SERVICE_PAGE_PATHS: its path is written there, not here`);
    if (typeof path !== 'string' || !OWN_PAGE_PATH.test(path)) throw fail(`path must be lower-case segments or {parameter}s, not under /api/ or /__, got ${JSON.stringify(path)}`);
  } else if (typeof page !== 'string' || !Object.hasOwn(SERVICE_PAGE_PATHS, page)) {
    throw fail(`names no page of contracts' SERVICE_PAGE_PATHS (a page of the slice's own needs its path): ${JSON.stringify(page)}`);
  }
  if (robots !== undefined && robots !== 'noindex') throw fail('robots may only be "noindex"');
  if (sharedCache !== undefined && typeof sharedCache !== 'boolean') throw fail('sharedCache must be true or false');
  if (forwardsAuthorization !== undefined && typeof forwardsAuthorization !== 'boolean') throw fail('forwardsAuthorization must be true or false');
  if (forwardsAuthorization && sharedCache) throw fail('a page behind a token (forwardsAuthorization) cannot be kept by shared caches (sharedCache)');
  if (!isRecord(unavailable) || typeof unavailable.title !== 'string' || typeof unavailable.text !== 'string' || !unavailable.title.trim() || !unavailable.text.trim()) {
    throw fail('needs unavailable: { title, text } for the page shown while the service is down');
  }
  return {
    page,
    ...(typeof path === 'string' ? { path } : {}),
    ...(robots ? { robots } : {}),
    ...(sharedCache ? { sharedCache } : {}),
    ...(forwardsAuthorization ? { forwardsAuthorization } : {}),
    unavailable: { title: unavailable.title, text: unavailable.text },
  };
}

const FORM_PAGE_KEYS = new Set(['page', 'maxBodyBytes', 'maxBodyBytesWhy', 'uploadTimeoutMs', 'inFlightPerAddress', 'connectionsPerUpstream', 'rateLimit', 'unavailable', 'index', 'footerLink']);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

function parseFormPage(value: unknown, index: number, service: string): EdgeFormPageDeclaration {
  const fail = (problem: string) => new EdgePolicyError(service, `form page ${index}: ${problem}`);
  if (!isRecord(value)) throw fail('is not an object');
  const extra = unknownKeys(value, FORM_PAGE_KEYS);
  if (extra.length > 0) throw fail(`has unknown keys ${extra.join(', ')}`);
  const { page, maxBodyBytes, uploadTimeoutMs, inFlightPerAddress, connectionsPerUpstream, rateLimit, unavailable, index: listed, footerLink } = value;
  if (footerLink !== undefined && (!nonEmpty(footerLink) || footerLink.length > 40)) throw fail('footerLink must be a text of 1 to 40 characters');
  if (listed !== undefined && (!isRecord(listed) || !nonEmpty(listed.description) || Object.keys(listed).length !== 1)) {
    throw fail('index must be { description } (the form page is then listed with that meta description)');
  }
  if (typeof page !== 'string' || !Object.hasOwn(SERVICE_FORM_PAGE_PATHS, page)) throw fail(`names no form page of contracts' SERVICE_FORM_PAGE_PATHS: ${JSON.stringify(page)}`);
  if (!isPositiveInteger(maxBodyBytes, MAX_DECLARED_FORM_BYTES)) throw fail(`maxBodyBytes must be an integer from 1 to ${MAX_DECLARED_FORM_BYTES}`);
  if (!isPositiveInteger(uploadTimeoutMs, 10 * 60 * 1000) || uploadTimeoutMs < 1000) throw fail('uploadTimeoutMs must be an integer from 1000 to 600000');
  if (!isPositiveInteger(inFlightPerAddress, 64)) throw fail('inFlightPerAddress must be an integer from 1 to 64');
  if (!isPositiveInteger(connectionsPerUpstream, 1024)) throw fail('connectionsPerUpstream must be an integer from 1 to 1024');
  if (!isRecord(rateLimit) || !isPositiveInteger(rateLimit.max, 1_000_000) || !isPositiveInteger(rateLimit.windowMs, WEEK_MS) || rateLimit.windowMs < 1000) {
    throw fail('needs rateLimit: { max, windowMs (at least 1000) }');
  }
  if (!isRecord(unavailable) || !nonEmpty(unavailable.title) || !nonEmpty(unavailable.heading) || !nonEmpty(unavailable.text) || (unavailable.pageClass !== undefined && !nonEmpty(unavailable.pageClass))) {
    throw fail('needs unavailable: { title, heading, text, pageClass? }');
  }
  return {
    page: page as EdgeFormPageDeclaration['page'],
    maxBodyBytes,
    uploadTimeoutMs,
    inFlightPerAddress,
    connectionsPerUpstream,
    rateLimit: { max: rateLimit.max, windowMs: rateLimit.windowMs },
    unavailable: { title: unavailable.title, heading: unavailable.heading, text: unavailable.text, ...(unavailable.pageClass ? { pageClass: unavailable.pageClass as string } : {}) },
    ...(isRecord(listed) && nonEmpty(listed.description) ? { index: { description: listed.description } } : {}),
    ...(nonEmpty(footerLink) ? { footerLink } : {}),
  };
}

/** Checks a declared policy (parsed JSON); throws `EdgePolicyError` naming the first problem. */
export function parseEdgePolicy(value: unknown, service: string): EdgePolicy {
  if (!isRecord(value) || !Array.isArray(value.routes)) throw new EdgePolicyError(service, 'must be an object with a routes array');
  if (value.pages !== undefined && !Array.isArray(value.pages)) throw new EdgePolicyError(service, 'pages must be an array');
  if (value.formPages !== undefined && !Array.isArray(value.formPages)) throw new EdgePolicyError(service, 'formPages must be an array');
  const formPages = ((value.formPages as unknown[] | undefined) ?? []).map((page, index) => parseFormPage(page, index, service));
  const routes = value.routes.map((route, index) => parseRoute(route, index, service));
  const pages = ((value.pages as unknown[] | undefined) ?? []).map((page, index) => parsePage(page, index, service));
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.call}`;
    if (seen.has(key)) throw new EdgePolicyError(service, `declares ${key} twice`);
    seen.add(key);
  }
  return { ...(typeof value.description === 'string' ? { description: value.description } : {}), routes, ...(pages.length > 0 ? { pages } : {}), ...(formPages.length > 0 ? { formPages } : {}) };
}

/**
 * The rate-limit scope of a request under a generic "per path parameter" rule: the parameter's
 * value, or `?` for a value longer than `maxLength` (every such value shares one counter, so long
 * garbage cannot make counters without end). Unknown values within the bound count apart: they are
 * refused by the service and store nothing.
 */
export function pathParameterScope(request: FastifyRequest, scope: { pathParameter: string; maxLength: number }): string {
  const value = (request.params as Record<string, unknown> | undefined)?.[scope.pathParameter];
  return `${scope.pathParameter}=${typeof value === 'string' && value.length <= scope.maxLength ? printableKey(value) : '?'}`;
}

/**
 * The value as a counter key any store keeps: characters outside printable ASCII (a NUL, say,
 * which PostgreSQL's text refuses) written as `%<hex code>`, so distinct values stay distinct.
 */
function printableKey(value: string): string {
  return value.replace(/[^\x21-\x7e]|%/g, (character) => `%${character.charCodeAt(0).toString(16)}`);
}

/** The proxy's routes for a service's policy. */
export function proxiedRoutesOf(policy: EdgePolicy): ProxiedRoute[] {
  return policy.routes.map((declared) => {
    const route: ProxiedRoute = { method: declared.method, url: callRoutePattern(DEFAULT_CALL_URLS[declared.call]) };
    if (declared.bodyLimitBytes !== undefined) route.bodyLimit = declared.bodyLimitBytes;
    if (declared.csrf === false) route.csrfExempt = true;
    if (declared.visitorIdPurpose) route.visitorIdPurpose = declared.visitorIdPurpose;
    if (declared.linkOrigin) route.forwardLinkOrigin = true;
    if (declared.rateLimit) {
      const { max, windowMs, windows, scope } = declared.rateLimit;
      const policy = windows ? { windows } : { max: max!, windowMs: windowMs! };
      route.rateLimit = { policy, ...(scope ? { scope: (request: FastifyRequest) => pathParameterScope(request, scope) } : {}) };
    }
    return route;
  });
}
