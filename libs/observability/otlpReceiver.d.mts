/** A span as the receiver got it. */
export interface ReceivedSpan {
  /** The sending process's `service.name` (its part). */
  service: string | undefined;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
}
/** A local OTLP/HTTP (JSON) receiver for tests. */
export interface OtlpReceiver {
  /** The value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Resolves once `test(spans)` holds, rejects after `timeoutMs` (default 30 s). */
  waitFor(test: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}
/** Starts a receiver on 127.0.0.1, port 0. */
export declare function startOtlpReceiver(): Promise<OtlpReceiver>;
