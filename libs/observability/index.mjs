export { boundedLabel, counter, metricsEnabled, DURATION_BUCKETS_SECONDS, gauge, histogram, metricsRegistry, metricsText, observeHttpRequest, recordHttpRequest, secondsSince, startProcessMetrics, UNMATCHED_ROUTE } from './metrics.mjs';
export { OPERATOR_CHALLENGE, presentedToken, tokenCheck } from './token.mjs';
export { activeTraceIds, DEFAULT_SAMPLE_RATIO, endServerSpan, runInSpan, samplingFromEnv, startServerSpan, startTracing, tracingEnabled, tracingRequested, withSpan } from './tracing.mjs';
export { childLineRelay, createLogger, prettyLogs, routeConsoleToLogger, startProcessLogs } from './logging.mjs';
export { METRICS_PATH, metricsHandler, observeFastify, registerMetricsRoute } from './fastify.mjs';
export { serveMetricsOver } from './nodeHttp.mjs';
