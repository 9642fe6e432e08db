// The worker thread that sends this process's spans (OtlpWorkerExporter, otlpWorkerExporter.mjs):
// each request arrives serialized (OTLP JSON bytes) and goes out through OpenTelemetry's own HTTP
// export delegate (its environment configuration, timeout, retries and concurrency limit).
// A `.js` file (ESM, as the package is): the search server's bundle builds it under this name.
import { parentPort, workerData } from 'node:worker_threads';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';

/**
 * The request was serialized in the sending thread: it goes as it is. The answer is read as
 * OpenTelemetry's JSON serializer reads it (`{}` when empty or not JSON), without loading
 * `@opentelemetry/otlp-transformer` here: its index loads the protobuf serializers too, which this
 * thread would never use.
 */
const passThrough = {
  serializeRequest: (request) => request.body,
  deserializeResponse: (data) => {
    try {
      return data.length === 0 ? {} : JSON.parse(new TextDecoder().decode(data));
    } catch {
      return {};
    }
  },
};
/** What OpenTelemetry's exporter metrics count per request: its spans. */
const spanCount = { name: 'span', countItems: (request) => request.spans };

const exporter = new OTLPExporterBase(
  createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: workerData.url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    passThrough,
    'otlp_http_span_exporter',
    spanCount,
  ),
);

parentPort.on('message', ({ id, body, spans }) => {
  exporter.export({ body, spans }, ({ code, error }) => parentPort.postMessage({ id, code, error: error ? String(error.message ?? error) : undefined }));
});
