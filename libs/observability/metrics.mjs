// Prometheus metrics of one process (prom-client): one registry per process, labelled with the
// part it is (`part`), the process's own metrics (memory, CPU, event-loop delay) and the HTTP
// request metrics every server of the site records the same way.
import client from 'prom-client';

/** The process's registry: every metric of this process, served by its `/metrics`. */
export const metricsRegistry = new client.Registry();

let processMetricsStarted = false;

/**
 * Whether this process records metrics: yes unless `KHS_METRICS=off` (the overhead benchmark's
 * baseline, or a deployment without Prometheus). Off, `/metrics` still answers, with nothing in it.
 */
export function metricsEnabled(env = process.env) {
  return env.KHS_METRICS?.trim() !== 'off';
}

/** How often the event-loop delay is sampled, ms. */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Labels every metric with `part` (the shell, a team service, the search server, a remote's
 * origin) and starts the process's own metrics: resident memory, heap, CPU, open handles and the
 * event-loop delay (`nodejs_eventloop_lag_seconds` and its percentiles). Once per process.
 */
export function startProcessMetrics(part) {
  if (processMetricsStarted || !metricsEnabled()) return;
  processMetricsStarted = true;
  metricsRegistry.setDefaultLabels({ part });
  // The event-loop delay is sampled every 100 ms (10 a second, hundreds a scrape): each sample is a
  // timer waking the process, about 75 µs of CPU on a busy machine (20 ms cost 3.6 ms a second).
  client.collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
}

function metric(Kind, config) {
  return metricsRegistry.getSingleMetric(config.name) ?? new Kind({ ...config, registers: [metricsRegistry] });
}

/** The counter `config.name` of this process (created on first use: servers built twice in one process share it). */
export const counter = (config) => metric(client.Counter, config);
/** The histogram `config.name` of this process (created on first use). */
export const histogram = (config) => metric(client.Histogram, config);
/** The gauge `config.name` of this process (created on first use). */
export const gauge = (config) => metric(client.Gauge, config);

/** Buckets of request and call durations, seconds: 5 ms to 10 s. */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Route label of a request no route matched (its path is never a label: unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

let httpMetrics;
function requestMetrics() {
  httpMetrics ??= {
    requests: counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern, method and status code.', labelNames: ['route', 'method', 'status_code'] }),
    duration: histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, seconds, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status_code'],
      buckets: DURATION_BUCKETS_SECONDS,
    }),
  };
  return httpMetrics;
}

/**
 * Counts one answered request and its duration. `route` is the route's pattern (`/articles/:id`),
 * never the path; an unknown method is `other`.
 */
export function recordHttpRequest(route, method, statusCode, seconds) {
  const labels = { route, method: KNOWN_METHODS.has(method) ? method : 'other', status_code: String(statusCode) };
  const metrics = requestMetrics();
  metrics.requests.inc(labels);
  metrics.duration.observe(labels, seconds);
}

/** Seconds since `started` (`performance.now()`). */
export function secondsSince(started) {
  return (performance.now() - started) / 1000;
}

/**
 * Records a node:http request once its answer has been sent (or the connection closed first):
 * `routeOf()` is asked then, so a handler may name the route as it goes.
 */
export function observeHttpRequest(req, res, routeOf) {
  if (!metricsEnabled()) return;
  const started = performance.now();
  let recorded = false;
  const record = () => {
    if (recorded) return;
    recorded = true;
    recordHttpRequest(routeOf(), req.method ?? 'GET', res.statusCode, secondsSince(started));
  };
  res.once('finish', record);
  res.once('close', record);
}

/** The text Prometheus scrapes: `{ contentType, body }`. */
export async function metricsText() {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/**
 * Bounds a label taken from a client (a build version a browser reports): the first `max` values
 * seen per `key` are kept, any later one is `other`.
 */
export function boundedLabel(max = 8) {
  const seen = new Map();
  return (key, value) => {
    let values = seen.get(key);
    if (!values) seen.set(key, (values = new Set()));
    if (values.has(value)) return value;
    if (values.size >= max) return 'other';
    values.add(value);
    return value;
  };
}
