/**
 * Benchmark of the embedded search server (prints figures; not a test).
 *
 *   npm run bench -w @khs/search-engine -- --sizes 10000,100000 [--queries 100] [--workers 1,2]
 *
 * Per corpus size: import time through the official client; then for each
 * worker count (1 = a single index copy, N = one copy per worker thread) a
 * supervised server restarted from the same data folder (no re-import): its
 * start time, resident memory of the supervisor and the server process, and
 * for the query mix p50/p95/p99 latency and queries/second at concurrency 1,
 * 8 and 32 over HTTP, side by side with the same engine queried in-process
 * (the floor).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { iterateGeneratedArticles } from '@khs/content';
import { SearchEngine } from '../src/engine.js';
import { indexArticles } from '../src/indexing/index-articles.js';
import { collectionSchema } from '../src/indexing/article-schema.js';
import { executeSearch } from '../src/search/execute-search.js';
import { parseSearchParams } from '../src/search/search-params.js';
import { fmt, percentiles, rssOfPid } from './bench-support.js';
import { type BenchQuery, buildQueryMix } from './query-mix.js';

const ADMIN = 'bench-admin';
const SEARCH = 'bench-search';
const COLLECTION = 'competence-articles';

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

interface ServerProcess {
  /** The supervisor (`src/cli/supervise.ts`). */
  child: ChildProcess;
  /** The search server process it runs. */
  serverPid: number;
  url: string;
  startMs: number;
  /** `performance.now()` when it reported listening. */
  readyAt: number;
}

/** Starts the supervised server (as `npm start` does) so each process's memory is measured alone. */
function startServerProcess(dataDir: string, workers: number): Promise<ServerProcess> {
  const started = performance.now();
  const superviseScript = fileURLToPath(new URL('../src/cli/supervise.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', superviseScript], {
    env: {
      ...process.env,
      SEARCH_PORT: '0',
      SEARCH_HOST: '127.0.0.1',
      SEARCH_DATA_DIR: dataDir,
      SEARCH_WORKERS: String(workers),
      // The bench sends 32 requests at a time and imports 1,000-document batches.
      SEARCH_QUEUE_LIMIT: '1000',
      TYPESENSE_API_KEY: ADMIN,
      TYPESENSE_SEARCH_API_KEY: SEARCH,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /\{"event":"listening"[^\n]*\}/.exec(buffered);
      if (match) {
        const line = JSON.parse(match[0]) as { url: string; pid: number };
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve({ child, serverPid: line.pid, url: line.url, startMs: performance.now() - started, readyAt: performance.now() });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

/** Waits until `/stats.json` says `workers` workers serve; returns the milliseconds since the process started. */
async function allWorkersServing(server: ServerProcess, workers: number): Promise<number> {
  const deadline = performance.now() + 600_000;
  while (performance.now() < deadline) {
    const stats = (await (await fetch(`${server.url}/stats.json`, { headers: { 'x-typesense-api-key': ADMIN } })).json()) as { workers?: number };
    if ((stats.workers ?? 0) >= workers) return server.startMs + (performance.now() - server.readyAt);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${workers} workers were not serving within 10 minutes`);
}

function stopServerProcess(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

async function httpSearch(url: string, query: BenchQuery): Promise<number> {
  const body = JSON.stringify({ searches: [{ collection: COLLECTION, ...query.params }] });
  const started = performance.now();
  const response = await fetch(`${url}/multi_search?x-typesense-api-key=${SEARCH}`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
  const json = (await response.json()) as { results: { found?: number; error?: string }[] };
  const elapsed = performance.now() - started;
  if (json.results[0]?.error) throw new Error(`query failed: ${json.results[0].error}`);
  return elapsed;
}

interface RunFigures {
  latencies: Map<string, number[]>;
  qps: number;
}

async function runHttp(url: string, queries: BenchQuery[], concurrency: number): Promise<RunFigures> {
  const latencies = new Map<string, number[]>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++] as BenchQuery;
        const ms = await httpSearch(url, query);
        latencies.set(query.kind, [...(latencies.get(query.kind) ?? []), ms]);
        latencies.set('all', [...(latencies.get('all') ?? []), ms]);
      }
    }),
  );
  return { latencies, qps: queries.length / ((performance.now() - started) / 1000) };
}

function runFloor(engine: SearchEngine, queries: BenchQuery[]): RunFigures {
  const collection = engine.get(COLLECTION);
  if (!collection) throw new Error('floor collection missing');
  const latencies = new Map<string, number[]>();
  const started = performance.now();
  for (const query of queries) {
    const params = Object.fromEntries(Object.entries(query.params).map(([k, v]) => [k, String(v)]));
    const t = performance.now();
    executeSearch(collection, parseSearchParams(params));
    const ms = performance.now() - t;
    latencies.set(query.kind, [...(latencies.get(query.kind) ?? []), ms]);
    latencies.set('all', [...(latencies.get('all') ?? []), ms]);
  }
  return { latencies, qps: queries.length / ((performance.now() - started) / 1000) };
}

function printTable(size: number, runs: [string, RunFigures][]): void {
  const kinds = ['one word', 'two words, one typo', 'prefix', 'facets + filter', 'all'];
  console.log(`\n| ${size.toLocaleString('en')} docs: p50 / p95 / p99 ms | ${runs.map(([name]) => name).join(' | ')} |`);
  console.log(`|---|${runs.map(() => '---').join('|')}|`);
  for (const kind of kinds) {
    const cells = runs.map(([, run]) => {
      const p = percentiles(run.latencies.get(kind) ?? []);
      return `${fmt(p.p50)} / ${fmt(p.p95)} / ${fmt(p.p99)}`;
    });
    console.log(`| ${kind} | ${cells.join(' | ')} |`);
  }
  console.log(`| queries/second | ${runs.map(([, run]) => fmt(run.qps, 0)).join(' | ')} |`);
}

function memoryLine(server: ServerProcess): string {
  const supervisor = rssOfPid(server.child.pid as number);
  const searchServer = rssOfPid(server.serverPid);
  return `supervisor ${fmt(supervisor, 0)} MB + search server ${fmt(searchServer, 0)} MB = ${fmt(supervisor + searchServer, 0)} MB`;
}

async function benchSize(size: number, perKind: number, workerCounts: number[]): Promise<void> {
  console.log(`\n=== ${size.toLocaleString('en')} generated articles ===`);
  const genStarted = performance.now();
  const articles = Array.from(iterateGeneratedArticles(size, { seed: 7 }));
  console.log(`corpus generated in ${fmt((performance.now() - genStarted) / 1000)} s`);
  const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  try {
    let server = await startServerProcess(dataDir, Math.max(...workerCounts));
    const importStarted = performance.now();
    const result = await indexArticles({ url: server.url, apiKey: ADMIN, collectionName: COLLECTION, articles, recreate: true });
    const importSeconds = (performance.now() - importStarted) / 1000;
    console.log(`import through typesense client into ${Math.max(...workerCounts)} workers: ${result.imported} ok, ${result.failed} failed in ${fmt(importSeconds)} s (${fmt(size / importSeconds, 0)} docs/s); RSS right after: ${memoryLine(server)}`);
    await stopServerProcess(server);

    const queries = buildQueryMix(articles, perKind);
    const runs: [string, RunFigures][] = [];
    for (const workers of workerCounts) {
      // Restart: everything comes back from the data folder.
      server = await startServerProcess(dataDir, workers);
      // The server listens once its writer has loaded; the readers join after: measure with all.
      const serving = await allWorkersServing(server, workers);
      console.log(`${workers} worker(s), restart from the data folder: listening after ${fmt(server.startMs / 1000)} s, all ${workers} serving after ${fmt(serving / 1000)} s; RSS ${memoryLine(server)}`);
      await runHttp(server.url, queries.slice(0, 40), 4); // warm-up
      const c1 = await runHttp(server.url, queries, 1);
      const c8 = await runHttp(server.url, queries, 8);
      const c32 = await runHttp(server.url, queries, 32);
      console.log(`${workers} worker(s) after the queries: RSS ${memoryLine(server)}`);
      const p95 = (run: RunFigures): number => percentiles(run.latencies.get('all') ?? []).p95;
      console.log(`${workers} worker(s): qps c8/c1 = ${fmt(c8.qps / c1.qps)}, p95 c8/c1 = ${fmt(p95(c8) / p95(c1))}`);
      runs.push([`${workers}w c1`, c1], [`${workers}w c8`, c8], [`${workers}w c32`, c32]);
      await stopServerProcess(server);
    }

    // The floor: the same engine in this process, no HTTP.
    const engine = new SearchEngine(undefined);
    engine.createCollection(collectionSchema(COLLECTION));
    const floorIndexStarted = performance.now();
    const collection = engine.get(COLLECTION);
    for (const article of articles) {
      const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
      collection?.write({ id, headline, title, intro, content, image, topic, date, url, readingTime, cta, ...(subline === undefined ? {} : { subline }) }, 'upsert');
    }
    collection?.compact();
    const floorIndexSeconds = (performance.now() - floorIndexStarted) / 1000;
    runFloor(engine, queries.slice(0, 40));
    const floor = runFloor(engine, queries);
    console.log(`floor index build in-process: ${fmt(floorIndexSeconds)} s`);
    printTable(size, [...runs, ['engine direct', floor]]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sizes = argument('sizes', '10000,100000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const perKind = Number(argument('queries', '100'));
const workerCounts = argument('workers', `1,${availableParallelism()}`)
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n, i, all) => Number.isInteger(n) && n > 0 && all.indexOf(n) === i);
console.log(
  `search-engine benchmark on ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, sizes ${sizes.join(', ')}, ${perKind} queries per kind, worker counts ${workerCounts.join(', ')}`,
);
for (const size of sizes) await benchSize(size, perKind, workerCounts);
console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes on the machine inflate latencies)`);
