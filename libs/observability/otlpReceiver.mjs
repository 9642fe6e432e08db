// A local OTLP/HTTP receiver for tests: takes `POST /v1/traces` (JSON, as this library's exporter
// sends; a protobuf body is kept undecoded) on a free port and keeps every span it got.
import { createServer } from 'node:http';

/** Starts a receiver on 127.0.0.1 (port 0). `endpoint`: the value for OTEL_EXPORTER_OTLP_ENDPOINT. */
export async function startOtlpReceiver() {
  const spans = [];
  const waiters = new Set();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value?.stringValue;
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attributes = Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, Object.values(attribute.value ?? {})[0]]));
              spans.push({ service, name: span.name, traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, attributes });
            }
          }
        }
        for (const waiter of waiters) waiter();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    /** Resolves with the spans once `test(spans)` holds (checked at each export), rejects after `timeoutMs`. */
    waitFor(test, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!test(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the spans did not arrive within ${timeoutMs} ms; got: ${spans.map((span) => `${span.service}:${span.name}`).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
