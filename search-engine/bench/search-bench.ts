/**
 * Benchmark of the embedded search server (prints figures; not a test).
 *
 *   npm run bench -w @khs/search-engine -- --sizes 10000,100000 [--queries 100] [--workers 1,2]
 *
 * Per corpus size: import time through the official client; then for each
 * worker count (1 = a single index copy, N = one copy per worker thread) a
 * supervised server restarted from the same data folder (no re-import), run
 * from the compiled build exactly as `npm start` runs it (built first, so never
 * stale): its start time, resident memory of the supervisor and the server
 * process (and any other child process) right after the restart and after
 * each query phase, each worker's heap and index arrays, and for the query mix
 * p50/p95/p99 latency and queries/second at concurrency 1, 8 and 32 over HTTP,
 * the CPU time per query of each server thread and of this load generator,
 * side by side with the same engine queried in-process (the floor), and the
 * figures against the issue's goals.
 *
 * The load generator is kept cheap because it shares the machine's cores with
 * the server: keep-alive connections (node:http, one per concurrent client),
 * and the answer is read whole but not parsed (a failed search is recognised
 * by its status or its `{"code":…}` slot).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { iterateFixtureDocuments } from '../test/fixtures/generate-documents.js';
import { SearchEngine } from '../src/engine.js';
import { loadFixtureSearchSets } from '../test/fixtures/search-sets.js';
import { bulkImport } from '../test/support/bulk-import.js';
import { fixtureCollectionSchema } from '../test/fixtures/collection-schema.js';
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

/** Builds the compiled service (`scripts/build-server.mjs`) as `npm start` does before it starts it. */
function buildServer(): void {
  const script = fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url));
  const result = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the search server build failed');
}

/** Starts the compiled supervisor (as `npm start` does) so each process's memory is measured alone. */
function startServerProcess(dataDir: string, workers: number): Promise<ServerProcess> {
  const started = performance.now();
  const superviseScript = fileURLToPath(new URL('../dist/supervise.js', import.meta.url));
  const child = spawn(process.execPath, [superviseScript], {
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

/** One keep-alive connection per concurrent client, as a browser or the shell's client keeps them. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: string, path: string, body: string): Promise<{ status: number; body: Buffer }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, hostname, port, method: 'POST', path, headers: { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const FAILED_SLOT = Buffer.from('{"results":[{"code":');

/** One search over HTTP; the time until the whole answer has arrived. The answer is not parsed (see the header). */
async function httpSearch(url: string, query: BenchQuery): Promise<number> {
  const body = JSON.stringify({ searches: [{ collection: COLLECTION, ...query.params }] });
  const started = performance.now();
  const response = await post(url, `/multi_search?x-typesense-api-key=${SEARCH}`, body);
  const elapsed = performance.now() - started;
  if (response.status !== 200 || response.body.subarray(0, FAILED_SLOT.length).equals(FAILED_SLOT)) {
    throw new Error(`query failed: ${response.status} ${response.body.subarray(0, 300).toString()}`);
  }
  return elapsed;
}

interface RunFigures {
  latencies: Map<string, number[]>;
  qps: number;
  /** CPU ms per query: the server process (all threads), its HTTP thread, each worker, this load generator. */
  cpu?: { server: number; http: number; workers: number[]; client: number };
}

function record(latencies: Map<string, number[]>, kind: string, ms: number): void {
  for (const key of [kind, 'all']) {
    const list = latencies.get(key);
    if (list) list.push(ms);
    else latencies.set(key, [ms]);
  }
}

async function runHttp(url: string, queries: BenchQuery[], concurrency: number): Promise<RunFigures> {
  const latencies = new Map<string, number[]>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++] as BenchQuery;
        record(latencies, query.kind, await httpSearch(url, query));
      }
    }),
  );
  return { latencies, qps: queries.length / ((performance.now() - started) / 1000) };
}

/** CPU time of a process, all threads, ms (Linux /proc). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface ServerStats {
  workers?: number;
  workerMemory?: { role: string; heapUsedMb: number; heapTotalMb: number; arrayBuffersMb: number; cpuMs: number }[];
  serverMemory?: { rssMb: number; httpHeapUsedMb: number; httpHeapTotalMb: number; httpCpuMs: number };
}

async function serverStats(url: string): Promise<ServerStats> {
  return (await (await fetch(`${url}/stats.json`, { headers: { 'x-typesense-api-key': ADMIN } })).json()) as ServerStats;
}

/** A query phase with the CPU each server thread and this process spent on it. */
async function measuredPhase(server: ServerProcess, queries: BenchQuery[], concurrency: number): Promise<RunFigures> {
  const before = await serverStats(server.url);
  const serverCpu = processCpuMs(server.serverPid);
  const clientCpu = process.cpuUsage();
  const run = await runHttp(server.url, queries, concurrency);
  const client = process.cpuUsage(clientCpu);
  const serverCpuAfter = processCpuMs(server.serverPid);
  const after = await serverStats(server.url);
  const n = queries.length;
  run.cpu = {
    server: (serverCpuAfter - serverCpu) / n,
    http: ((after.serverMemory?.httpCpuMs ?? 0) - (before.serverMemory?.httpCpuMs ?? 0)) / n,
    workers: (after.workerMemory ?? []).map((w, i) => (w.cpuMs - (before.workerMemory?.[i]?.cpuMs ?? 0)) / n),
    client: (client.user + client.system) / 1000 / n,
  };
  return run;
}

function workerMemoryLine(stats: ServerStats): string {
  const http = stats.serverMemory ? `HTTP thread heap ${fmt(stats.serverMemory.httpHeapUsedMb, 0)}/${fmt(stats.serverMemory.httpHeapTotalMb, 0)} MB; ` : '';
  return http + (stats.workerMemory ?? []).map((w, i) => `worker ${i} (${w.role}) heap ${fmt(w.heapUsedMb, 0)}/${fmt(w.heapTotalMb, 0)} MB + index arrays ${fmt(w.arrayBuffersMb, 0)} MB`).join('; ');
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
    record(latencies, query.kind, performance.now() - t);
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

/** Resident memory of the supervisor, the search server and any other process below the supervisor (MB). */
function memory(server: ServerProcess): { supervisor: number; server: number; others: number; total: number } {
  const children = (pid: number): number[] => {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
        readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  };
  const all: number[] = [];
  const walk = (pid: number): void => {
    all.push(pid);
    for (const child of children(pid)) walk(child);
  };
  const supervisorPid = server.child.pid as number;
  walk(supervisorPid);
  const supervisor = rssOfPid(supervisorPid);
  const searchServer = rssOfPid(server.serverPid);
  const others = all.filter((pid) => pid !== supervisorPid && pid !== server.serverPid).reduce((sum, pid) => sum + rssOfPid(pid), 0);
  return { supervisor, server: searchServer, others, total: supervisor + searchServer + others };
}

function memoryLine(server: ServerProcess): string {
  const m = memory(server);
  return `supervisor ${fmt(m.supervisor, 0)} MB + search server ${fmt(m.server, 0)} MB${m.others ? ` + other child processes ${fmt(m.others, 0)} MB` : ''} = ${fmt(m.total, 0)} MB`;
}

const GOAL_TOTAL_MB = 700;
const GOAL_QPS_RATIO = 1.7;
const GOAL_P95_RATIO = 3;
const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

async function benchSize(size: number, perKind: number, workerCounts: number[]): Promise<void> {
  console.log(`\n=== ${size.toLocaleString('en')} generated articles ===`);
  const genStarted = performance.now();
  const articles = Array.from(iterateFixtureDocuments(size, { seed: 7 }));
  console.log(`corpus generated in ${fmt((performance.now() - genStarted) / 1000)} s`);
  const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  try {
    let server = await startServerProcess(dataDir, Math.max(...workerCounts));
    const importStarted = performance.now();
    const result = await bulkImport({ url: server.url, apiKey: ADMIN, collectionName: COLLECTION, documents: articles, recreate: true, searchSets: loadFixtureSearchSets() });
    const importSeconds = (performance.now() - importStarted) / 1000;
    console.log(`import through typesense client into ${Math.max(...workerCounts)} workers: ${result.imported} ok, ${result.failed} failed in ${fmt(importSeconds)} s (${fmt(size / importSeconds, 0)} docs/s); RSS right after: ${memoryLine(server)}`);
    await stopServerProcess(server);

    const queries = buildQueryMix(articles, perKind);
    const runs: [string, RunFigures][] = [];
    const goals: string[] = [];
    for (const workers of workerCounts) {
      // Restart: everything comes back from the data folder.
      server = await startServerProcess(dataDir, workers);
      // The server listens once its writer has loaded; the readers join after: measure with all.
      const serving = await allWorkersServing(server, workers);
      const afterRestart = memory(server);
      console.log(`${workers} worker(s), restart from the data folder: listening after ${fmt(server.startMs / 1000)} s, all ${workers} serving after ${fmt(serving / 1000)} s; RSS ${memoryLine(server)}; ${workerMemoryLine(await serverStats(server.url))}`);
      // Warm-up over the whole mix at c8, so every worker has compiled every query path and the
      // c1 phase (the ratios' denominator) does not pay the JIT's warm-up alone.
      await runHttp(server.url, queries, 8);
      const phases: [number, RunFigures][] = [];
      let peakTotal = afterRestart.total;
      for (const concurrency of [1, 8, 32]) {
        const run = await measuredPhase(server, queries, concurrency);
        phases.push([concurrency, run]);
        const m = memory(server);
        peakTotal = Math.max(peakTotal, m.total);
        const cpu = run.cpu;
        console.log(
          `${workers} worker(s) after c${concurrency}: RSS ${memoryLine(server)}; CPU ms per query: server process ${fmt(cpu?.server ?? Number.NaN, 1)} (HTTP thread ${fmt(cpu?.http ?? Number.NaN, 1)}, ${(cpu?.workers ?? []).map((w, i) => `worker ${i} ${fmt(w, 1)}`).join(', ')}, rest = GC and runtime threads), load generator ${fmt(cpu?.client ?? Number.NaN, 1)}`,
        );
      }
      const afterQueries = memory(server);
      console.log(`${workers} worker(s) after the queries: ${workerMemoryLine(await serverStats(server.url))}`);
      const [c1, c8, c32] = phases.map(([, run]) => run) as [RunFigures, RunFigures, RunFigures];
      const p95 = (run: RunFigures): number => percentiles(run.latencies.get('all') ?? []).p95;
      const qpsRatio = c8.qps / c1.qps;
      const p95Ratio = p95(c8) / p95(c1);
      console.log(`${workers} worker(s): qps c8/c1 = ${fmt(qpsRatio)}, p95 c8/c1 = ${fmt(p95Ratio)}`);
      goals.push(
        `${size.toLocaleString('en')} docs, ${workers} worker(s): total RSS after restart ${fmt(afterRestart.total, 0)} MB, after the queries ${fmt(afterQueries.total, 0)} MB (highest after a phase ${fmt(peakTotal, 0)} MB) vs ≤ ${GOAL_TOTAL_MB} MB: ${verdict(Math.max(afterRestart.total, peakTotal) <= GOAL_TOTAL_MB)}` +
          `; qps c8/c1 ${fmt(qpsRatio)} vs ≥ ${GOAL_QPS_RATIO}: ${verdict(qpsRatio >= GOAL_QPS_RATIO)}; p95 c8/c1 ${fmt(p95Ratio)} vs ≤ ${GOAL_P95_RATIO}: ${verdict(p95Ratio <= GOAL_P95_RATIO)}`,
      );
      runs.push([`${workers}w c1`, c1], [`${workers}w c8`, c8], [`${workers}w c32`, c32]);
      await stopServerProcess(server);
    }

    // The floor: the same engine in this process, no HTTP.
    const engine = new SearchEngine(undefined);
    engine.createCollection(fixtureCollectionSchema(COLLECTION));
    const floorIndexStarted = performance.now();
    const collection = engine.get(COLLECTION);
    for (const article of articles) {
      const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
      collection?.write({ id, headline, title, intro, content, image, topic, date, url, readingTime, cta, ...(subline === undefined ? {} : { subline }) }, 'upsert');
    }
    collection?.compact();
    const floorIndexSeconds = (performance.now() - floorIndexStarted) / 1000;
    runFloor(engine, queries); // the same full warm-up as the server's
    const floor = runFloor(engine, queries);
    console.log(`floor index build in-process: ${fmt(floorIndexSeconds)} s`);
    printTable(size, [...runs, ['engine direct', floor]]);
    console.log(`\nGoals (issue 11) at ${size.toLocaleString('en')} articles, load average now ${loadavg().map((l) => l.toFixed(2)).join(' ')}:`);
    for (const line of goals) console.log(`- ${line}`);
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
buildServer();
for (const size of sizes) await benchSize(size, perKind, workerCounts);
agent.destroy();
console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes on the machine inflate latencies)`);
