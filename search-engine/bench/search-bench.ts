/**
 * Benchmark of the embedded search server (prints figures; not a test).
 *
 *   npm run bench -w @khs/search-engine -- --sizes 10000,100000 [--queries 100]
 *
 * Per corpus size: import time through the official client, the server's
 * resident memory, restart (reload from the data folder) time, and for the
 * query mix p50/p95/p99 latency and queries/second at concurrency 1 and 8
 * over HTTP, side by side with the same engine queried in-process (the floor).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
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
  child: ChildProcess;
  url: string;
  startMs: number;
}

/** Starts `src/cli/start.ts` in its own process (so its memory is measured alone). */
function startServerProcess(dataDir: string): Promise<ServerProcess> {
  const started = performance.now();
  const startScript = fileURLToPath(new URL('../src/cli/start.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', startScript], {
    env: { ...process.env, SEARCH_PORT: '0', SEARCH_HOST: '127.0.0.1', SEARCH_DATA_DIR: dataDir, TYPESENSE_API_KEY: ADMIN, TYPESENSE_SEARCH_API_KEY: SEARCH },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(buffered);
      if (match) resolve({ child, url: match[1] as string, startMs: performance.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
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

async function benchSize(size: number, perKind: number): Promise<void> {
  console.log(`\n=== ${size.toLocaleString('en')} generated articles ===`);
  const genStarted = performance.now();
  const articles = Array.from(iterateGeneratedArticles(size, { seed: 7 }));
  console.log(`corpus generated in ${fmt((performance.now() - genStarted) / 1000)} s`);
  const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
  try {
    let server = await startServerProcess(dataDir);
    const idleRss = rssOfPid(server.child.pid as number);
    const importStarted = performance.now();
    const result = await indexArticles({ url: server.url, apiKey: ADMIN, collectionName: COLLECTION, articles, recreate: true });
    const importSeconds = (performance.now() - importStarted) / 1000;
    const rssAfterImport = rssOfPid(server.child.pid as number);
    // V8 returns garbage from the import to the OS only after a quiet moment.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const rssSettled = rssOfPid(server.child.pid as number);
    console.log(`import through typesense client: ${result.imported} ok, ${result.failed} failed in ${fmt(importSeconds)} s (${fmt(size / importSeconds, 0)} docs/s)`);
    console.log(`server RSS: ${fmt(idleRss, 0)} MB empty, ${fmt(rssAfterImport, 0)} MB right after import, ${fmt(rssSettled, 0)} MB 10 s later`);

    // Restart: everything comes back from the data folder.
    await stopServerProcess(server);
    server = await startServerProcess(dataDir);
    const rssAfterRestart = rssOfPid(server.child.pid as number);
    console.log(`restart from data folder: listening after ${fmt(server.startMs / 1000)} s, RSS ${fmt(rssAfterRestart, 0)} MB`);

    await new Promise((resolve) => setTimeout(resolve, 10_000));
    console.log(`restarted server RSS 10 s later: ${fmt(rssOfPid(server.child.pid as number), 0)} MB`);
    const queries = buildQueryMix(articles, perKind);
    await runHttp(server.url, queries.slice(0, 40), 4); // warm-up
    const c1 = await runHttp(server.url, queries, 1);
    const c8 = await runHttp(server.url, queries, 8);
    const rssAfterQueries = rssOfPid(server.child.pid as number);
    await stopServerProcess(server);

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
    console.log(`floor index build in-process: ${fmt(floorIndexSeconds)} s; server RSS after queries: ${fmt(rssAfterQueries, 0)} MB`);
    printTable(size, [
      ['HTTP, concurrency 1', c1],
      ['HTTP, concurrency 8', c8],
      ['in-process engine (floor)', floor],
    ]);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const sizes = argument('sizes', '10000,100000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const perKind = Number(argument('queries', '100'));
console.log(`search-engine benchmark on ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, sizes ${sizes.join(', ')}, ${perKind} queries per kind`);
for (const size of sizes) await benchSize(size, perKind);
console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (other processes on the machine inflate latencies)`);
