/**
 * Benchmark of the embedded server's analytics (prints figures; not a test).
 *
 *   npx tsx bench/analytics-bench.ts [--events 20000] [--documents 2000] [--concurrency 1,16] [--searches 2000] [--workers 2]
 *
 * The server runs as its own supervised process (as `npm start` runs it, from sources). Over
 * keep-alive connections, at each concurrency: `GET /health` (the HTTP thread alone) and
 * `GET /analytics/status` (a round trip to the writer worker) as this run's baselines, then
 * `POST /analytics/events` into a counter rule and into a log rule (events ingested per second);
 * then one flush applying the counters to `--documents` documents through the pool; and searches
 * on a collection with a popular-queries rule, interleaved with the same searches sent with
 * `enable_analytics=false`, to show what noting searches costs. Every path is warmed up first.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { superviseSearchServer } from '../src/index.js';
import { fmt, percentiles, prng } from './bench-support.js';

const ADMIN = 'bench-admin';

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const totalEvents = Number(argument('events', '20000'));
const documentCount = Number(argument('documents', '2000'));
const concurrencies = argument('concurrency', '1,16').split(',').map(Number);
const searchCount = Number(argument('searches', '2000'));
const workers = argument('workers', '2');

interface Answer {
  status: number;
  body: string;
}

function request(agent: http.Agent, url: URL, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: url.hostname, port: url.port, method, path, headers: { 'x-typesense-api-key': ADMIN, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends `count` requests made by `make(i)` from `concurrency` clients; answers per second and latency percentiles. */
async function load(url: URL, count: number, concurrency: number, make: (i: number) => { method: string; path: string; body?: string; headers?: Record<string, string> }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const { method, path, body, headers } = make(i);
        const sent = performance.now();
        const answer = await request(agent, url, method, path, body, headers);
        latencies.push(performance.now() - sent);
        if (answer.status !== 200) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { perSecond: count / seconds, failed, ...percentiles(latencies) };
}

const dataDir = mkdtempSync(join(tmpdir(), 'analytics-bench-'));
const server = await superviseSearchServer({
  port: 0,
  dataDir,
  adminApiKey: ADMIN,
  searchApiKey: 'bench-search',
  env: { SEARCH_WORKERS: workers, SEARCH_ANALYTICS_FLUSH_INTERVAL: '86400' },
  log: () => {},
});
const url = new URL(server.url);
const admin = new http.Agent({ keepAlive: true, maxSockets: 1 });
const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
  const answer = await request(admin, url, method, path, body === undefined ? undefined : JSON.stringify(body));
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
  return answer;
};

try {
  console.log(`analytics bench: ${totalEvents} events per run, ${documentCount} documents, ${workers} worker(s), load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  await call('POST', '/collections', { name: 'products', fields: [{ name: 'name', type: 'string' }, { name: 'popularity', type: 'int32' }] });
  const words = ['leadership', 'feedback', 'negotiation', 'agile', 'remote', 'career', 'coaching', 'planning'];
  const random = prng(25);
  const lines = Array.from({ length: documentCount }, (_, i) => JSON.stringify({ id: `p${i}`, name: `${words[i % words.length]} course ${i}`, popularity: 0 }));
  await request(admin, url, 'POST', '/collections/products/documents/import', lines.join('\n'));
  await call('POST', '/collections', { name: 'queries', fields: [{ name: 'q', type: 'string' }, { name: 'count', type: 'int32' }] });
  await call('POST', '/analytics/rules', { name: 'clicks', type: 'counter', collection: 'products', event_type: 'click', params: { counter_field: 'popularity', weight: 1 } });
  await call('POST', '/analytics/rules', { name: 'click_log', type: 'log', collection: 'products', event_type: 'click' });
  await call('POST', '/analytics/rules', { name: 'popular', type: 'popular_queries', collection: 'products', event_type: 'search', params: { destination_collection: 'queries', limit: 100 } });

  const rows: string[][] = [];
  const row = (what: string, concurrency: number, figures: Awaited<ReturnType<typeof load>>): void => {
    rows.push([what, String(concurrency), fmt(figures.perSecond, 0), fmt(figures.p50), fmt(figures.p95), fmt(figures.p99), String(figures.failed)]);
  };
  const eventBody = (name: string, i: number): string => JSON.stringify({ name, event_type: 'click', data: { doc_id: `p${Math.floor(random() * documentCount)}`, user_id: `user-${i % 500}` } });
  // Warm-up (JIT of every path measured below), not reported; its counts are flushed away.
  for (const path of ['/health', '/analytics/status']) await load(url, 1000, 4, () => ({ method: 'GET', path }));
  for (const name of ['clicks', 'click_log']) await load(url, 1000, 4, (i) => ({ method: 'POST', path: '/analytics/events', body: eventBody(name, i) }));
  await call('POST', '/analytics/flush');
  for (const concurrency of concurrencies) {
    row('GET /health (baseline: HTTP thread)', concurrency, await load(url, totalEvents, concurrency, () => ({ method: 'GET', path: '/health' })));
    row('GET /analytics/status (baseline: writer round trip)', concurrency, await load(url, totalEvents, concurrency, () => ({ method: 'GET', path: '/analytics/status' })));
    row('POST /analytics/events, counter rule', concurrency, await load(url, totalEvents, concurrency, (i) => ({ method: 'POST', path: '/analytics/events', body: eventBody('clicks', i) })));
    row('POST /analytics/events, log rule', concurrency, await load(url, totalEvents, concurrency, (i) => ({ method: 'POST', path: '/analytics/events', body: eventBody('click_log', i) })));
  }
  console.log('\n| requests | concurrency | per second | p50 ms | p95 ms | p99 ms | failed |\n|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);

  const status = JSON.parse((await call('GET', '/analytics/status')).body) as Record<string, number>;
  const flushStarted = performance.now();
  await call('POST', '/analytics/flush');
  const flushMs = performance.now() - flushStarted;
  console.log(`\nflush: ${status.doc_counter_events} documents' counters and ${status.doc_log_events} log events applied in ${fmt(flushMs, 0)} ms (${fmt((status.doc_counter_events ?? 0) / (flushMs / 1000), 0)} documents/s through the pool write)`);

  // Searches with and without analytics, interleaved in rounds so the machine's load hits both alike.
  const searchRows: Record<string, Awaited<ReturnType<typeof load>>[]> = { noted: [], 'enable_analytics=false': [] };
  const rounds = 4;
  for (const extra of ['', '&enable_analytics=false']) await load(url, 400, 8, (i) => ({ method: 'GET', path: `/collections/products/documents/search?q=${words[i % words.length]}&query_by=name${extra}` }));
  for (let round = 0; round < rounds; round++) {
    // Alternate which variant goes first, so neither always meets a warmer or a busier machine.
    const variants = round % 2 === 0 ? Object.keys(searchRows) : Object.keys(searchRows).reverse();
    for (const variant of variants) {
      const extra = variant === 'noted' ? '' : '&enable_analytics=false';
      const figures = await load(url, Math.ceil(searchCount / rounds), 8, (i) => ({
        method: 'GET',
        path: `/collections/products/documents/search?q=${words[i % words.length]}&query_by=name${extra}`,
        headers: { 'x-typesense-user-id': `user-${i}` },
      }));
      searchRows[variant]?.push(figures);
    }
  }
  console.log('\n| searches (c8, popular-queries rule on the collection) | per second | p50 ms | p95 ms |\n|---|---|---|---|');
  for (const [variant, runs] of Object.entries(searchRows)) {
    const mean = (key: 'perSecond' | 'p50' | 'p95'): number => runs.reduce((sum, r) => sum + r[key], 0) / runs.length;
    console.log(`| ${variant} | ${fmt(mean('perSecond'), 0)} | ${fmt(mean('p50'))} | ${fmt(mean('p95'))} |`);
  }
  console.log(`\nload average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  admin.destroy();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
