// Traces: W3C trace context, OpenTelemetry's Node SDK exporting over OTLP/HTTP — only when
// OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Without it nothing
// is loaded and every helper here is a test of one boolean.
import diagnosticsChannel from 'node:diagnostics_channel';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const TRACER_NAME = '@khs/observability';
let enabled = false;
let provider;
/** The one tracer of this process (looked up once: a lookup per span cost a tenth of the SDK's time). */
let tracer;

/** How often spans are sent by default, ms: OpenTelemetry's own default (`OTEL_BSP_SCHEDULE_DELAY`). */
const DEFAULT_EXPORT_DELAY_MS = 5000;

/** Whether the environment asks for traces (an OTLP endpoint is set). */
export function tracingRequested(env = process.env) {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Whether this process records spans (`startTracing` found an endpoint). */
export function tracingEnabled() {
  return enabled;
}

/**
 * Starts OpenTelemetry's SDK when the environment names an OTLP endpoint: spans of this process
 * (`service.name` = `part`) are batched and sent over OTLP/HTTP (JSON); the trace context follows
 * async work (AsyncLocalStorage) and every outgoing HTTP request made within a span carries it
 * (`traceparent`: node:http clients, fetch and undici). Without an endpoint it does nothing.
 * Returns `shutdown()`, which sends what is left.
 */
export async function startTracing({ part, env = process.env }) {
  if (enabled || !tracingRequested(env)) return { enabled, shutdown: async () => {} };
  const [{ TracerProvider, BatchSpanProcessor }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator, isTracingSuppressed }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // The endpoints as the OTLP exporter itself reads them from process.env, read from `env`.
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || `${env.OTEL_EXPORTER_OTLP_ENDPOINT.trim().replace(/\/$/, '')}/v1/traces`;
  // Each export is an HTTP request with a fixed cost: every 5 s (a full batch of 512 spans goes at once).
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0 ? Number(env.OTEL_BSP_SCHEDULE_DELAY) : DEFAULT_EXPORT_DELAY_MS;
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': part }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesEndpoint }), scheduledDelayMillis: delay })],
  });
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer(TRACER_NAME);
  carryContextIntoOutgoingRequests(isTracingSuppressed);
  enabled = true;
  return { enabled, shutdown: () => provider.shutdown() };
}

/**
 * Every HTTP request this process sends within a span gets its `traceparent`, whoever sends it
 * (the remotes' server code loaded into the shell included): node:http clients as they are
 * created, undici's (fetch, the shell's proxy) likewise.
 */
function carryContextIntoOutgoingRequests(isTracingSuppressed) {
  const current = () => {
    const active = context.active();
    return trace.getSpanContext(active) && !isTracingSuppressed(active) ? active : undefined;
  };
  diagnosticsChannel.subscribe('http.client.request.created', ({ request }) => {
    const active = current();
    if (active && !request.headersSent) propagation.inject(active, request, { set: (carrier, key, value) => carrier.setHeader(key, value) });
  });
  diagnosticsChannel.subscribe('undici:request:create', ({ request }) => {
    const active = current();
    if (active) propagation.inject(active, request, { set: (carrier, key, value) => carrier.addHeader(key, value) });
  });
}

/**
 * Starts the server span of a request: a child of the caller's `traceparent` when `trusted` (the
 * shell: a trusted proxy; the services and the search server: the shell), else a new trace. Returns
 * the span and its context, or undefined with tracing off.
 */
export function startServerSpan(method, route, headers, trusted, part) {
  if (!enabled) return undefined;
  const parent = trusted ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
  const span = tracer.startSpan(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route, ...(part ? { 'khs.part': part } : {}) } },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a server span with the answer's status (5xx marks it failed). */
export function endServerSpan(started, statusCode) {
  if (!started) return;
  started.span.setAttribute('http.response.status_code', statusCode);
  if (statusCode >= 500) started.span.setStatus({ code: SpanStatusCode.ERROR });
  started.span.end();
}

/** Runs `fn` with `started`'s context active (so what it awaits and sends belongs to the span). */
export function runInSpan(started, fn) {
  return started ? context.with(started.context, fn) : fn();
}

/**
 * Runs `work` in a child span of the active one named `name` with `attributes`; a rejection marks
 * the span failed. With tracing off it is `work()`.
 */
export function withSpan(name, attributes, work) {
  if (!enabled) return work();
  return tracer.startActiveSpan(name, { attributes }, (span) =>
    Promise.resolve()
      .then(work)
      .then(
        (value) => {
          span.end();
          return value;
        },
        (error) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error?.message ?? error).split('\n')[0] });
          span.end();
          throw error;
        },
      ),
  );
}

/** The active trace and span ids (for log lines), or undefined. */
export function activeTraceIds() {
  if (!enabled) return undefined;
  const spanContext = trace.getSpanContext(context.active());
  return spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : undefined;
}
