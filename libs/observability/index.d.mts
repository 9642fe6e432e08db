import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Span } from '@opentelemetry/api';
import type { Logger, DestinationStream } from 'pino';
import type { Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';

/** The process's registry: every metric of this process, served by its `/metrics`. */
export declare const metricsRegistry: Registry;
/** Whether this process records metrics (unless `KHS_METRICS=off`). */
export declare function metricsEnabled(env?: Readonly<Record<string, string | undefined>>): boolean;
/** Labels every metric with `part` and starts the process's own metrics (memory, CPU, event-loop delay). Once per process. */
export declare function startProcessMetrics(part: string): void;
/** The counter `config.name` of this process (created on first use). */
export declare function counter<T extends string>(config: CounterConfiguration<T>): Counter<T>;
/** The histogram `config.name` of this process (created on first use). */
export declare function histogram<T extends string>(config: HistogramConfiguration<T>): Histogram<T>;
/** The gauge `config.name` of this process (created on first use). */
export declare function gauge<T extends string>(config: GaugeConfiguration<T>): Gauge<T>;
/** Buckets of request and call durations, seconds: 5 ms to 10 s. */
export declare const DURATION_BUCKETS_SECONDS: number[];
/** Route label of a request no route matched. */
export declare const UNMATCHED_ROUTE: string;
/** Counts one answered request and its duration (`route`: the route's pattern, never the path). */
export declare function recordHttpRequest(route: string, method: string, statusCode: number, seconds: number): void;
/** Seconds since `started` (`performance.now()`). */
export declare function secondsSince(started: number): number;
/** Records a node:http request once answered; `routeOf()` is asked then. */
export declare function observeHttpRequest(req: IncomingMessage, res: ServerResponse, routeOf: () => string): void;
/** The text Prometheus scrapes. */
export declare function metricsText(): Promise<{ contentType: string; body: string }>;
/** Bounds a client-given label: the first `max` (default 8) values per key are kept, later ones are `other`. */
export declare function boundedLabel(max?: number): (key: string, value: string) => string;

/** The token an `Authorization` header presents (Bearer, or Basic's password). */
export declare function presentedToken(authorization: string | undefined): string | undefined;
/** A constant-time check of `Authorization` headers against `expected`. */
export declare function tokenCheck(expected: string): (authorization: string | undefined) => 'ok' | 'missing' | 'wrong';
/** The challenge a 401 sends. */
export declare const OPERATOR_CHALLENGE: string[];

/** A started server span and its context. */
export interface StartedSpan {
  span: Span;
  context: Context;
}
/** Whether the environment names an OTLP endpoint. */
export declare function tracingRequested(env?: Readonly<Record<string, string | undefined>>): boolean;
/** Whether this process records spans. */
export declare function tracingEnabled(): boolean;
/** The share of the traces a process starts that are recorded by default (`OTEL_TRACES_SAMPLER_ARG`). */
export declare const DEFAULT_SAMPLE_RATIO: number;
/** OpenTelemetry's sampler names (`OTEL_TRACES_SAMPLER`). */
export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
/**
 * Which traces are recorded, from `OTEL_TRACES_SAMPLER` (default `parentbased_traceidratio`: a
 * trusted caller's sampled flag decides, else the ratio) and `OTEL_TRACES_SAMPLER_ARG` (the ratio,
 * default DEFAULT_SAMPLE_RATIO); a value it does not know is reported with `warn` and the default taken.
 */
export declare function samplingFromEnv(env?: Readonly<Record<string, string | undefined>>, warn?: (message: string) => void): { name: SamplerName; ratio?: number };
/** Starts OpenTelemetry's SDK when an OTLP endpoint is set (else nothing), sampling as samplingFromEnv says. */
export declare function startTracing(options: { part: string; env?: Readonly<Record<string, string | undefined>> }): Promise<{ enabled: boolean; shutdown(): Promise<void> }>;
/** Starts a request's server span (child of its `traceparent` when `trusted`); undefined with tracing off. */
export declare function startServerSpan(method: string, route: string, headers: Record<string, string | string[] | undefined>, trusted: boolean, part?: string): StartedSpan | undefined;
/** Ends a server span with the answer's status. */
export declare function endServerSpan(started: StartedSpan | undefined, statusCode: number): void;
/** Runs `fn` with the span's context active. */
export declare function runInSpan<T>(started: StartedSpan | undefined, fn: () => T): T;
/** Runs `work` in a child span of the active one; with tracing off, or in a trace not recorded (not sampled), it is `work()`. */
export declare function withSpan<T>(name: string, attributes: Record<string, string | number | boolean>, work: () => Promise<T> | T): Promise<T>;
/** The active trace and span ids, or undefined. */
export declare function activeTraceIds(): { trace_id: string; span_id: string } | undefined;

/** Whether lines are printed for people (`LOG_FORMAT=pretty`). */
export declare function prettyLogs(env?: Readonly<Record<string, string | undefined>>): boolean;
/** A pino logger of `part`: JSON lines with part, level, message and the trace ids. */
export declare function createLogger(options: { part: string; level?: string; destination?: DestinationStream; env?: Readonly<Record<string, string | undefined>> }): Logger;

/** Makes `console.*` write through `logger` (an `Error` argument in `err`); a `{"event":…}` status line is written as it is. */
export declare function routeConsoleToLogger(logger: Logger): void;
/**
 * Every line of this process as a JSON line of `part` (console, Node's warnings, an uncaught
 * exception as a `fatal` line then exit 1); the first call of a process's entry. Once per process:
 * later calls return the first logger.
 */
export declare function startProcessLogs(part: string, env?: Readonly<Record<string, string | undefined>>): Logger;
/**
 * The `log` of a process that prints its children's lines: a JSON line as it is, any other line as
 * a JSON line of `logger`; with `LOG_FORMAT=pretty` every line as it is.
 */
export declare function childLineRelay(logger: Logger, env?: Readonly<Record<string, string | undefined>>): (line: string) => void;

/** Path of every process's Prometheus metrics. */
export declare const METRICS_PATH: string;
/** Records every request of `app` and runs it in a server span with tracing on. */
export declare function observeFastify(app: FastifyInstance, options: { part: string; trustTraceparent?: (request: FastifyRequest) => boolean }): void;
/** A handler sending the metrics behind `token`. */
export declare function metricsHandler(token: string): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
/** `GET /metrics` behind `token`; nothing without one. */
export declare function registerMetricsRoute(app: FastifyInstance, token: string | undefined, routeOptions?: RouteShorthandOptions): void;
/** `/metrics` on a node:http server: resolves true when it answered, false without a token. */
export declare function serveMetricsOver(token: string | undefined): (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

declare module 'fastify' {
  interface FastifyRequest {
    khsObservation: { started: number; span: StartedSpan | undefined } | null;
  }
}
