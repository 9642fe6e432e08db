// The same observation for every Fastify server of the site (the shell, each team service).
import { metricsEnabled, metricsText, recordHttpRequest, secondsSince, UNMATCHED_ROUTE } from './metrics.mjs';
import { OPERATOR_CHALLENGE, tokenCheck } from './token.mjs';
import { endServerSpan, runInSpan, startServerSpan, tracingEnabled, tracingRequested } from './tracing.mjs';

/** Path of every process's Prometheus metrics. */
export const METRICS_PATH = '/metrics';

/**
 * Records every request of `app` (`http_requests_total`, `http_request_duration_seconds` by
 * route pattern, method and status) and, with tracing on, runs it in a server span: a child of its
 * `traceparent` when `trustTraceparent(request)` says so. Call before the routes are registered.
 */
export function observeFastify(app, { part, trustTraceparent = () => true }) {
  app.decorateRequest('khsObservation', null);
  // Nothing to observe: no hook at all (KHS_METRICS=off and no OTLP endpoint).
  const recording = metricsEnabled();
  if (!recording && !tracingRequested()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const span = tracingEnabled() ? startServerSpan(request.method, route, request.headers, trustTraceparent(request), part) : undefined;
    request.khsObservation = { started: performance.now(), span };
    runInSpan(span, done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const observation = request.khsObservation;
    if (observation) {
      if (recording) recordHttpRequest(request.routeOptions.url ?? UNMATCHED_ROUTE, request.method, reply.statusCode, secondsSince(observation.started));
      endServerSpan(observation.span, reply.statusCode);
    }
    done();
  });
}

/**
 * Sends this process's metrics when `authorization` carries `token`, else 401 JSON with the
 * operators' challenge. For a route registered only when a token is configured.
 */
export function metricsHandler(token) {
  const check = tokenCheck(token);
  return async (request, reply) => {
    const verdict = check(request.headers.authorization);
    if (verdict !== 'ok') {
      return reply
        .code(401)
        .header('cache-control', 'no-store')
        .header('www-authenticate', OPERATOR_CHALLENGE)
        .send({ error: verdict === 'missing' ? 'An operator token is required' : 'The operator token is wrong', code: 'operator-token-required' });
    }
    const { contentType, body } = await metricsText();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  };
}

/** `GET /metrics` behind `token`; without a token nothing is registered (the path answers 404 as any unknown one). */
export function registerMetricsRoute(app, token, routeOptions = {}) {
  if (!token) return;
  app.get(METRICS_PATH, routeOptions, metricsHandler(token));
}
