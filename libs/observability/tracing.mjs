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

/**
 * The share of the traces this process starts that are recorded, by default
 * (`OTEL_TRACES_SAMPLER_ARG`): a trace costs the shell about 9 spans a page (its measured CPU cost:
 * "Observability overhead" in deploy/README.md); every request keeps its trace id in its log lines.
 */
export const DEFAULT_SAMPLE_RATIO = 0.1;
/** `OTEL_TRACES_SAMPLER`'s value by default: follow the caller's sampled flag, else the ratio. */
const DEFAULT_SAMPLER = 'parentbased_traceidratio';
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/**
 * Which traces are recorded, as OpenTelemetry's environment names them (`OTEL_TRACES_SAMPLER`, one
 * of SAMPLERS; `OTEL_TRACES_SAMPLER_ARG`, the ratio of `…traceidratio`, 0 to 1). By default
 * `parentbased_traceidratio` at DEFAULT_SAMPLE_RATIO: a trusted caller's `traceparent` decides
 * (its sampled flag), a trace this process starts is recorded at the ratio. A value it does not
 * know is reported and the default taken. Returns `{ name, ratio }` (`ratio` for the ratio samplers).
 */
export function samplingFromEnv(env = process.env, warn = console.warn) {
  let name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || DEFAULT_SAMPLER;
  if (!SAMPLERS.includes(name)) {
    warn(`[observability] OTEL_TRACES_SAMPLER=${name} is not one of ${SAMPLERS.join(', ')}: ${DEFAULT_SAMPLER} is used`);
    name = DEFAULT_SAMPLER;
  }
  if (!name.endsWith('traceidratio')) return { name };
  const text = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const ratio = text ? Number(text) : DEFAULT_SAMPLE_RATIO;
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) return { name, ratio };
  warn(`[observability] OTEL_TRACES_SAMPLER_ARG=${text} is not a ratio from 0 to 1: ${DEFAULT_SAMPLE_RATIO} is used`);
  return { name, ratio: DEFAULT_SAMPLE_RATIO };
}

/** OpenTelemetry's sampler for `sampling` (samplingFromEnv), from the SDK's own samplers. */
function samplerOf({ name, ratio }, { AlwaysOnSampler, AlwaysOffSampler, TraceIdRatioBasedSampler, ParentBasedSampler }) {
  const root = name.endsWith('always_on') ? new AlwaysOnSampler() : name.endsWith('always_off') ? new AlwaysOffSampler() : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

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
 * (`service.name` = `part`) of the traces sampled (samplingFromEnv) are batched and sent over
 * OTLP/HTTP (JSON); the trace context, sampled or not, follows
 * async work (AsyncLocalStorage) and every outgoing HTTP request made within a span carries it
 * (`traceparent`: node:http clients, fetch and undici). Without an endpoint it does nothing.
 * Returns `shutdown()`, which sends what is left.
 */
export async function startTracing({ part, env = process.env }) {
  if (enabled || !tracingRequested(env)) return { enabled, shutdown: async () => {} };
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator, isTracingSuppressed }, { OtlpWorkerExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('./otlpWorkerExporter.mjs'),
      import('@opentelemetry/resources'),
    ]);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // The endpoints as the OTLP exporter itself reads them from process.env, read from `env`.
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || `${env.OTEL_EXPORTER_OTLP_ENDPOINT.trim().replace(/\/$/, '')}/v1/traces`;
  // Each export is an HTTP request with a fixed cost: every 5 s (a full batch of 512 spans goes at once).
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY) > 0 ? Number(env.OTEL_BSP_SCHEDULE_DELAY) : DEFAULT_EXPORT_DELAY_MS;
  provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': part }),
    sampler: samplerOf(samplingFromEnv(env), sdk),
    // Sent from a worker thread: see otlpWorkerExporter.mjs for why.
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OtlpWorkerExporter({ url: tracesEndpoint }), scheduledDelayMillis: delay })],
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
  const span = tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER }, parent);
  // Attributes only for a recorded span (the samplers here read none): an unsampled one skips their checks.
  if (span.isRecording()) span.setAttributes({ 'http.request.method': method, 'http.route': route, ...(part ? { 'khs.part': part } : {}) });
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
 * the span failed. With tracing off, or within a trace that is not recorded (not sampled), it is
 * `work()`: what `work` sends carries the active context (its `traceparent` says "not sampled").
 */
export function withSpan(name, attributes, work) {
  if (!enabled) return work();
  const active = trace.getActiveSpan();
  if (active && !active.isRecording()) return work();
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
