import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyReplyFrom, { type FastifyReplyFromHooks } from '@fastify/reply-from';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER } from '@khs/team-service/edge';
import type { ApiError } from '../app.js';
import type { RateLimitPolicy } from '../security/rateLimit/rateLimitPolicies.js';
import { rateLimitConfig } from '../security/rateLimit/rateLimiting.js';
import { visitorIdOf } from '../security/visitorIdentity.js';

/** One call the shell forwards to a team service, at the same path. */
export interface ProxiedRoute {
  method: 'GET' | 'POST';
  /** Route pattern, e.g. `/api/surveys/:formHandle/submissions` (from contracts' call URLs). */
  url: string;
  /** Per-client-address limit checked here, before anything is forwarded (shared by instances via the database). */
  rateLimit?: { policy: RateLimitPolicy; scope?: (request: FastifyRequest) => string };
  /**
   * Purpose of the visitor id derived from the signed CSRF cookie and forwarded in
   * `x-khs-visitor-id` (e.g. `survey-vote`). Unset: no visitor id is forwarded.
   */
  visitorIdPurpose?: string;
  /**
   * No CSRF token needed (the app's `csrfExempt` route config): only for calls browsers send without
   * one (beacons), which must then be rate-limited and validated strictly by the service.
   */
  csrfExempt?: boolean;
  /**
   * Largest body the edge forwards (bytes): a larger declared `Content-Length` is refused here with
   * 413 JSON before anything is forwarded, and a body that grows past it is cut off. The service
   * applies its own limit too. Default: the shell's body limit.
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
  /** Resolves a request's link origin, for routes with `forwardLinkOrigin`. */
  linkOrigin?: (request: FastifyRequest) => string;
}

/** Error codes of a failed forward, in the JSON body. */
export const SERVICE_UNAVAILABLE_CODE = 'service-unavailable';
export const SERVICE_TIMEOUT_CODE = 'service-timeout';

/** Client headers never forwarded: the visitor's cookies and token stay at the edge; edge headers are the edge's to set. */
const DROPPED_REQUEST_HEADERS = ['cookie', 'x-csrf-token', EDGE_KEY_HEADER, VISITOR_ID_HEADER, LINK_ORIGIN_HEADER, 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

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
 * cookie, sent with the edge key so the service can trust it. The request body is streamed
 * through unparsed (the service parses and limits it). A service that is down or too slow gets a
 * quick JSON 503/504, so its island shows its error state and the page and other islands go on.
 */
export async function serviceProxy(app: FastifyInstance, options: ServiceProxyOptions): Promise<void> {
  const { service, upstreams, cookieSecret, edgeKey } = options;
  if (upstreams.length === 0) throw new Error(`No upstream for the ${service} service`);
  if (options.routes.some((route) => route.forwardLinkOrigin) && !options.linkOrigin) throw new Error(`The ${service} service's routes need a link origin resolver`);
  const logFailure = failureLogger(service);

  await app.register(fastifyReplyFrom, {
    base: upstreams.length === 1 ? upstreams[0]! : upstreams,
    undici: {
      connections: 64,
      pipelining: 1,
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
    },
    disableRequestLogging: true,
  });
  // Bodies go to the service as they came: no parsing (nor a second size limit) at the edge.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => {
    const limit = request.routeOptions.bodyLimit;
    // Forwarded through a pass-through, not the request itself: a failed forward destroys the body
    // stream it was given, and must not take the visitor's connection with it (the 503 JSON must
    // still reach them). The rest of an unsent body is then read and dropped.
    const body = new PassThrough();
    body.on('error', () => {
      payload.unpipe(body);
      payload.resume();
    });
    // A body longer than it said (or chunked past the limit) is cut off: the service gets a truncated one.
    let received = 0;
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) body.destroy(new Error('body over the limit'));
    });
    payload.pipe(body);
    done(null, body);
  });

  const onError: NonNullable<FastifyReplyFromHooks['onError']> = (reply, { error }) => {
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

  for (const route of options.routes) {
    const rewriteRequestHeaders: NonNullable<FastifyReplyFromHooks['rewriteRequestHeaders']> = (request, headers) => {
      const forwarded = { ...headers };
      for (const name of DROPPED_REQUEST_HEADERS) delete forwarded[name];
      forwarded['x-forwarded-for'] = request.ip;
      forwarded[EDGE_KEY_HEADER] = edgeKey;
      if (route.visitorIdPurpose) {
        const visitorId = visitorIdOf(request as FastifyRequest, route.visitorIdPurpose, cookieSecret);
        if (visitorId) forwarded[VISITOR_ID_HEADER] = visitorId;
      }
      if (route.forwardLinkOrigin && options.linkOrigin) forwarded[LINK_ORIGIN_HEADER] = options.linkOrigin(request as FastifyRequest);
      return forwarded;
    };
    const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit ?? 1024 * 1024;
    app.route({
      method: route.method,
      url: route.url,
      bodyLimit,
      onRequest: (request, reply, done) => {
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > bodyLimit) {
          const body: ApiError = { error: `The request body is larger than ${bodyLimit} bytes`, code: 'FST_ERR_CTP_BODY_TOO_LARGE' };
          void reply.code(413).header('cache-control', 'no-store').send(body);
          return;
        }
        done();
      },
      config: { ...(route.csrfExempt ? { csrfExempt: true } : {}), ...(route.rateLimit ? rateLimitConfig(route.rateLimit.policy, route.rateLimit.scope) : {}) },
      handler: (request, reply) => reply.from(request.url, { rewriteRequestHeaders, onError }),
    });
  }
}
