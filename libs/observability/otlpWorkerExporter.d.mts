import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry's `SpanExporter`, serializing each batch in this thread (OTLP JSON) and sending it
 * over HTTP from a worker thread (OpenTelemetry's export delegate: environment configuration,
 * timeout, retries), so this thread's node:http code serves only its own answers.
 */
export declare class OtlpWorkerExporter implements SpanExporter {
  /** @param options.url The OTLP/HTTP traces endpoint (`…/v1/traces`). */
  constructor(options: { url: string });
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void;
  /** Resolves once every batch handed over so far is sent or has failed. */
  forceFlush(): Promise<void>;
  /** Sends what is pending, then stops the thread; later exports fail. */
  shutdown(): Promise<void>;
}
