import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyReplyFrom, { type FastifyReplyFromHooks } from '@fastify/reply-from';
import type { ApiErrorBody as ApiError } from '@khs/team-service/errors';
import { endToEndHeaders, forwardedHeaders } from './forwardedHeaders.js';
import { PROXY_CONNECTIONS_PER_UPSTREAM, PROXY_IN_FLIGHT_PER_ADDRESS } from '../security/edgeLimits.js';
import { inFlightPerAddress } from '../security/inFlightPerAddress.js';
import type { RateLimitPolicy } from '../security/rateLimit/rateLimitPolicies.js';
import { RateLimitedError, rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import { memoryRateLimitLog, type RateLimitLogRepository, type RateWindow } from '../slidingWindows/slidingWindows.js';

/** One call the shell forwards to a team service, at the same path. */
export interface ProxiedRoute {
  method: 'GET' | 'POST';
  /** Route pattern (`:name` parameters), from contracts' call URLs. */
  url: string;
  /**
   * Per-client-address limit checked here, before anything is forwarded (shared by instances via the
   * database): a fixed window (`RateLimitPolicy`) or sliding windows (`{ windows }`).
   */
  rateLimit?: { policy: RateLimitPolicy | { windows: readonly RateWindow[] }; scope?: (request: FastifyRequest) => string };
  /**
   * Purpose of the visitor id derived from the signed CSRF cookie and forwarded in
   * `x-khs-visitor-id` (the service's declared purpose). Unset: no visitor id is forwarded.
   */
  visitorIdPurpose?: string;
  /**
   * No CSRF token needed (the app's `csrfExempt` route config): only for calls browsers send without
   * one (beacons), which must then be rate-limited and validated strictly by the service.
   */
  csrfExempt?: boolean;
  /**
   * Largest body the edge forwards (bytes): a larger declared `Content-Length` is refused here with
   * 413 JSON before anything is read, and a body that grows past it (chunked, or longer than it
   * said) with 413 JSON as soon as it does; nothing is forwarded. The service applies its own limit
   * too. Default: the shell's body limit.
   */
  bodyLimit?: number;
  /** Forward the origin absolute links must use (`x-khs-link-origin`: PUBLIC_BASE_URL or an allowed host), e.g. for sharing URLs. */
  forwardLinkOrigin?: boolean;
}

/** A team service behind the shell's reverse proxy. */
export interface ServiceProxyOptions {
  /** The service's name, for error messages and logs. */
  service: string;
  /** Its instances' origins; with several, requests are balanced round-robin over them. */
  upstreams: string[];
  routes: ProxiedRoute[];
  /** The shell's `COOKIE_SECRET`: derives visitor ids (it never leaves the shell). */
  cookieSecret: string;
  /** The service's own edge key (registry `edgeKeyEnv`), sent with every forwarded request. */
  edgeKey: string;
  /** How long to wait for a connection to an instance (ms). */
  connectTimeoutMs: number;
  /** How long to wait for its response headers, and between body chunks (ms). */
  responseTimeoutMs: number;
  /** Requests one client address may have in flight to this service. Default `PROXY_IN_FLIGHT_PER_ADDRESS`. */
  inFlightPerAddress?: number;
  /** How long a request body may take to arrive (ms), then 408. Default `REQUEST_BODY_TIMEOUT_MS`. */
  bodyTimeoutMs?: number;
  /** Resolves a request's link origin, for routes with `forwardLinkOrigin`. */
  linkOrigin?: (request: FastifyRequest) => string;
  /** Where routes with sliding-window limits keep their logs (`Database.rateLimitLogs`, shared by instances). Default: this process's memory. */
  rateLimitLogs?: RateLimitLogRepository;
}

/** Error codes of a failed forward, in the JSON body. */
export const SERVICE_UNAVAILABLE_CODE = 'service-unavailable';
export const SERVICE_TIMEOUT_CODE = 'service-timeout';
/** Fastify's code for a body over the limit: the edge's own declared-length refusal uses the same. */
export const BODY_TOO_LARGE_CODE = 'FST_ERR_CTP_BODY_TOO_LARGE';
/** Error code of a request target that is not valid percent-encoded UTF-8 (it cannot be forwarded as it came). */
export const INVALID_TARGET_CODE = 'invalid-request-target';

/** Whether `target` percent-decodes to valid UTF-8 (what the forwarding library requires of it). */
function isDecodableTarget(target: string): boolean {
  try {
    decodeURIComponent(target);
    return true;
  } catch {
    return false;
  }
}

/** Logs a service's failures at most once a minute (a dead service must not flood the log). */
function failureLogger(service: string): (error: Error) => void {
  let lastLoggedAt = 0;
  let suppressed = 0;
  return (error) => {
    const now = Date.now();
    if (now - lastLoggedAt < 60_000) {
      suppressed += 1;
      return;
    }
    const cause = (error as Error & { cause?: Error }).cause;
    console.warn(
      `[shell] the ${service} service did not answer: ${error.message}${cause ? ` (${cause.message})` : ''}` +
        (suppressed > 0 ? `; ${suppressed} more failures since the last message` : ''),
    );
    lastLoggedAt = now;
    suppressed = 0;
  };
}

/**
 * Forwards `routes` to the service's instances (`@fastify/reply-from` on undici, kept-alive
 * connections, a connect and a response timeout). What runs here, at the edge, before anything is
 * forwarded: the CSRF check (the app's global hook: one mechanism for every service), the route's
 * rate limit, and — for routes with a `visitorIdPurpose` — the visitor id derived from the signed
 * cookie, sent with the edge key so the service can trust it. At most `inFlightPerAddress`
 * requests of one client address are open at once (429 beyond). The request body is read at the
 * edge (unparsed; the service parses it) up to the route's limit (413 beyond, chunked or not) and
 * within the body timeout (408, `requestBodies`), and only a complete body is forwarded, with its
 * length: a slow or broken client never holds a connection to the service. A service that is down
 * or too slow gets a quick JSON 503/504, so its island shows its error state and the page and other
 * islands go on. The answer's hop-by-hop headers stay behind (the visitor's `Connection: close`
 * is honoured).
 */
export async function serviceProxy(app: FastifyInstance, options: ServiceProxyOptions): Promise<void> {
  const { service, upstreams } = options;
  if (upstreams.length === 0) throw new Error(`No upstream for the ${service} service`);
  if (options.routes.some((route) => route.forwardLinkOrigin) && !options.linkOrigin) throw new Error(`The ${service} service's routes need a link origin resolver`);
  await registerForwarding(app, options);
  const forwarding: RouteForwarding = {
    onError: unavailableAnswer(service),
    inFlight: inFlightPerAddress(options.inFlightPerAddress ?? PROXY_IN_FLIGHT_PER_ADDRESS),
    rateLimitLogs: options.rateLimitLogs ?? memoryRateLimitLog(),
  };
  for (const route of options.routes) proxyRoute(app, route, options, forwarding);
}

/** What every proxied route of one service shares: its failure answer, its in-flight limit, its rate-limit logs. */
interface RouteForwarding {
  onError: NonNullable<FastifyReplyFromHooks['onError']>;
  inFlight: ReturnType<typeof inFlightPerAddress>;
  rateLimitLogs: RateLimitLogRepository;
}

/** The forwarding client (undici, kept-alive connections, timeouts) and bodies read whole, unparsed. */
async function registerForwarding(app: FastifyInstance, options: ServiceProxyOptions): Promise<void> {
  const { upstreams } = options;
  await app.register(fastifyReplyFrom, {
    base: upstreams.length === 1 ? upstreams[0]! : upstreams,
    undici: {
      connections: PROXY_CONNECTIONS_PER_UPSTREAM,
      pipelining: 1,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
    },
    disableRequestLogging: true,
  });
  // Bodies are read whole at the edge, unparsed, up to the route's limit (Fastify answers 413 as
  // soon as one grows past it, 400 when it is shorter or longer than its Content-Length), and
  // forwarded as the bytes that came: a connection to the service is only taken for a complete body.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/** The answer to a failed forward: JSON 504 when the service was too slow, else 503 (logged at most once a minute). */
function unavailableAnswer(service: string): NonNullable<FastifyReplyFromHooks['onError']> {
  const logFailure = failureLogger(service);
  return (reply, { error }) => {
    logFailure(error);
    const timedOut = (error as Error & { statusCode?: number }).statusCode === 504;
    const body: ApiError = {
      error: timedOut ? `The ${service} service took too long to answer. Please try again.` : `The ${service} service is not available right now. Please try again later.`,
      code: timedOut ? SERVICE_TIMEOUT_CODE : SERVICE_UNAVAILABLE_CODE,
    };
    void reply
      .code(timedOut ? 504 : 503)
      .header('cache-control', 'no-store')
      .header('retry-after', '5')
      .type('application/json; charset=utf-8')
      .send(body);
  };
}

/** One route, forwarded at the same path once its refusals (target, size, in-flight, rate limits) let it through. */
function proxyRoute(app: FastifyInstance, route: ProxiedRoute, options: ServiceProxyOptions, forwarding: RouteForwarding): void {
  const rewriteRequestHeaders = forwardedHeaders({
    edgeKey: options.edgeKey,
    cookieSecret: options.cookieSecret,
    ...(route.visitorIdPurpose ? { visitorIdPurpose: route.visitorIdPurpose } : {}),
    ...(route.forwardLinkOrigin && options.linkOrigin ? { linkOrigin: options.linkOrigin } : {}),
  });
  const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
  const limit = route.rateLimit;
  const fixedLimit = limit && !('windows' in limit.policy) ? { policy: limit.policy, scope: limit.scope } : undefined;
  const slidingWindows = limit && 'windows' in limit.policy ? limit.policy.windows : undefined;
  app.route({
    method: route.method,
    url: route.url,
    bodyLimit,
    // Before the rate limit (which runs after the route's own onRequest hooks): cheap refusals first.
    onRequest: [
      refuseUnforwardable(bodyLimit),
      forwarding.inFlight.onRequest,
      ...(slidingWindows ? [slidingWindowLimit(forwarding.rateLimitLogs, `sw:${route.method}${route.url}|`, slidingWindows, limit?.scope)] : []),
    ],
    config: {
      ...(route.csrfExempt ? { csrfExempt: true } : {}),
      ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
      ...(fixedLimit ? rateLimitConfig(fixedLimit.policy, fixedLimit.scope) : {}),
    },
    handler: (request, reply) => {
      const body = request.body as Buffer | undefined;
      return reply.from(request.url, {
        rewriteRequestHeaders,
        rewriteHeaders: endToEndHeaders,
        onError: forwarding.onError,
        // The bytes read at the edge, with their length and the type they came with.
        ...(body !== undefined ? { body, contentType: request.headers['content-type'] ?? 'application/octet-stream' } : {}),
      });
    },
  });
}

/** Refuses what cannot be forwarded, before anything is read: a target that does not decode (400), a declared body over the limit (413). */
function refuseUnforwardable(bodyLimit: number) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    // A query like `?q=%E0%A4%A` or `?q=%ff`: the forwarding library would throw on it (a 500).
    if (!isDecodableTarget(request.url)) {
      const body: ApiError = { error: 'The request URL has an invalid percent-encoding or is not UTF-8', code: INVALID_TARGET_CODE };
      void reply.code(400).header('cache-control', 'no-store').send(body);
      return;
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > bodyLimit) {
      const body: ApiError = { error: `The request body is larger than ${bodyLimit} bytes`, code: BODY_TOO_LARGE_CODE };
      void reply.code(413).header('cache-control', 'no-store').send(body);
      return;
    }
    done();
  };
}

/**
 * A route's sliding-window limit per client address (plus `scope`), decided on the shared log
 * before anything is forwarded; a refused request gets 429 JSON with `Retry-After` (whole seconds
 * until one more would be accepted).
 */
function slidingWindowLimit(logs: RateLimitLogRepository, prefix: string, windows: readonly RateWindow[], scope?: (request: FastifyRequest) => string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const decision = await logs.take(`${prefix}${request.ip}${scope ? `|${scope(request)}` : ''}`, windows);
    if (decision.allowed) return;
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    void reply.header('retry-after', String(seconds));
    throw new RateLimitedError(seconds);
  };
}
