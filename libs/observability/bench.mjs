// What the instrumentation itself costs per article request (prints figures, asserts nothing): an
// article page is one request and about 8 island renders. Metrics: the request's counter and
// histogram and 8 island histograms. Tracing: a server span, 8 island spans and their export
// (OTLP/HTTP JSON to a local receiver), for a recorded trace and for one the sampler leaves out. Set against the shell's CPU per article request measured by
// scripts/bench-observability.ts.   node libs/observability/bench.mjs
import { histogram, recordHttpRequest, startProcessMetrics, startServerSpan, endServerSpan, runInSpan, startTracing, withSpan } from './index.mjs';
import { startOtlpReceiver } from './otlpReceiver.mjs';

const ISLANDS = 8;
const ROUNDS = Number(process.env.BENCH_REQUESTS ?? 10000);
startProcessMetrics('bench');
const islands = histogram({ name: 'bench_island_render_duration_seconds', help: 'bench', labelNames: ['remote', 'version', 'outcome'], buckets: [0.001, 0.01, 0.1, 1] });

function cpuMicros(fn) {
  const before = process.cpuUsage();
  return fn().then(() => {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / ROUNDS;
  });
}

const metricsPerRequest = await cpuMicros(async () => {
  for (let index = 0; index < ROUNDS; index++) {
    recordHttpRequest('/articles/:id', 'GET', 200, 0.012);
    for (let island = 0; island < ISLANDS; island++) islands.observe({ remote: `mf-${island % 4}`, version: '0.1.0+abcdef012345', outcome: 'rendered' }, 0.002);
  }
});
const baseline = await cpuMicros(async () => {
  for (let index = 0; index < ROUNDS; index++) await Promise.all(Array.from({ length: ISLANDS }, async () => 1));
});
const receiver = await startOtlpReceiver();
// Every trace recorded (the default records a tenth of the traces a process starts): a sampled trace's cost.
const tracing = await startTracing({ part: 'bench', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_TRACES_SAMPLER: 'parentbased_always_on' } });
/** One article request's spans: the server span (a child of `headers`' `traceparent` when there is one) and the islands'. */
const tracedRequests = (headers) =>
  cpuMicros(async () => {
    for (let index = 0; index < ROUNDS; index++) {
      const span = startServerSpan('GET', '/articles/:id', headers, true, 'bench');
      await runInSpan(span, () => Promise.all(Array.from({ length: ISLANDS }, () => withSpan('island render', { 'khs.island': 'mf-x/Y', 'khs.remote': 'mf-x' }, async () => 1))));
      endServerSpan(span, 200);
      // Paced as a server's requests are, so the batch exporter keeps up (no span dropped).
      if (index % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 120));
    }
  });
// A caller's `traceparent` with the sampled flag off: the parent-based sampler records nothing, as
// for the 9 traces in 10 the default ratio leaves out (ids made, context carried, no span kept).
const notSampled = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00' };
await tracedRequests(notSampled); // warm-up: a server runs this path warm
const unrecorded = await tracedRequests(notSampled);
const traced = await tracedRequests({});
await tracing.shutdown();
await receiver.close();
console.log(`CPU per article request's worth of instrumentation (${ROUNDS} requests, 1 request + ${ISLANDS} islands each):`);
console.log(`  metrics: ${metricsPerRequest.toFixed(1)} µs`);
console.log(`  tracing, an unrecorded trace (9 in 10 at the default sampling): ${(unrecorded - baseline).toFixed(1)} µs`);
console.log(`  tracing, a recorded trace: ${(traced - baseline).toFixed(1)} µs (spans created, ended and exported, and received by the test receiver in this same process: an upper bound; ${receiver.spans.length} of ${ROUNDS * (ISLANDS + 1)} received)`);
