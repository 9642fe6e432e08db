// A span exporter (OpenTelemetry's SpanExporter) that serializes each batch here, in OTLP JSON
// with OpenTelemetry's own serializer, and sends it from a worker thread (otlpExportWorker.js).
//
// Why a thread: every answer this process sends goes through node:http's OutgoingMessage and
// stream code, which V8 keeps optimized for a server's answers. OpenTelemetry's exporter sent its
// client request through that same code every few seconds, and V8 deoptimized it ("wrong map":
// `write_`, `_writeRaw`, `writeOrBuffer`, `afterWrite`… after each export) for the pages that
// followed. Sent from here, the export's share of the main thread moves to this one thread, where
// it is next to nothing once warm ("Observability overhead" in deploy/README.md).
import { Worker } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

const WORKER_URL = new URL('./otlpExportWorker.js', import.meta.url);

export class OtlpWorkerExporter {
  /** The OTLP/HTTP traces endpoint (`…/v1/traces`). */
  #url;
  /** The sending thread, started with the exporter (again at the next export, should it stop). */
  #worker;
  /** Exports sent and not yet answered: id → settle(result). */
  #pending = new Map();
  #nextId = 0;
  #stopped = false;

  /** @param {{ url: string }} options */
  constructor({ url }) {
    this.#url = url;
    // Started with the process, not at its first export: a thread's start (its own V8 heap, the
    // exporter's modules) is a start-up cost, not one of the requests being served then.
    this.#started();
  }

  /** OpenTelemetry's `SpanExporter.export`: `resultCallback` once the batch is sent or has failed. */
  export(spans, resultCallback) {
    if (this.#stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('The span exporter is shut down') });
      return;
    }
    const body = JsonTraceSerializer.serializeRequest(spans);
    if (!body) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('Nothing to send') });
      return;
    }
    const id = ++this.#nextId;
    const worker = this.#started();
    this.#pending.set(id, (result) => {
      this.#pending.delete(id);
      // A process may exit while nothing is being sent: the thread keeps it alive only meanwhile.
      if (this.#pending.size === 0) worker.unref();
      resultCallback(result);
    });
    worker.ref();
    worker.postMessage({ id, body, spans: spans.length }, [body.buffer]);
  }

  /** Resolves once every batch handed over so far is sent or has failed. */
  async forceFlush() {
    const answered = [...this.#pending.entries()].map(
      ([id, settle]) => new Promise((resolve) => this.#pending.set(id, (result) => (settle(result), resolve()))),
    );
    await Promise.all(answered);
  }

  /** Sends what is pending, then stops the thread. */
  async shutdown() {
    this.#stopped = true;
    await this.forceFlush();
    await this.#worker?.terminate();
    this.#worker = undefined;
  }

  #started() {
    if (this.#worker) return this.#worker;
    // No flags of this process (a tsx loader, `--input-type` of an `-e` script): the thread runs plain ESM.
    const worker = new Worker(WORKER_URL, { workerData: { url: this.#url }, name: 'otlp-export', execArgv: [] });
    worker.unref();
    worker.on('message', ({ id, code, error }) => this.#pending.get(id)?.(error ? { code, error: new Error(error) } : { code }));
    const failAll = (error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const settle of [...this.#pending.values()]) settle({ code: ExportResultCode.FAILED, error });
    };
    worker.on('error', (error) => {
      // Not silent: OpenTelemetry reports a failed export nowhere unless a diagnostics logger is set.
      console.warn(`[observability] the span export thread failed: ${error?.message ?? error}`);
      failAll(error);
    });
    worker.on('exit', (exitCode) => failAll(new Error(`The span export thread stopped (exit code ${exitCode})`)));
    this.#worker = worker;
    return worker;
  }
}
