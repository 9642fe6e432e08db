/**
 * Resident memory of the search server process at N articles, per worker count (prints figures):
 *
 *   node --import tsx measure/server-memory.ts --size 100000 [--workers 1,2] [--queries 25] [--malloc default]
 *
 * Builds a data folder once (snapshot written by the engine in this process, cached in the
 * temporary folder per size), then for each worker count starts the compiled server
 * (`dist/start.js`, built first by `scripts/build-server.mjs`, as `npm start` runs it) on it (a
 * restart: no re-import) with the supervisor's malloc settings and node flags (`--malloc default`:
 * glibc's defaults), runs the bench's query mix, and prints the process's RSS after load
 * and after the queries (one at a time, then 32 at a time), with each worker's V8 heap and array buffers from `/stats.json`.
 * Faster than the full benchmark (no HTTP import), for comparing memory designs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { iterateFixtureDocuments } from '../test/fixtures/generate-documents.js';
import { SearchEngine } from '../src/engine.js';
import { CollectionStore } from '../src/persistence/collection-store.js';
import { fixtureCollectionSchema } from '../test/fixtures/collection-schema.js';
import { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../src/supervisor/supervise-search-server.js';
import { fmt, rssOfPid } from '../bench/bench-support.js';
import { type BenchArticle, buildQueryMix } from '../bench/query-mix.js';

function argument(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const size = Number(argument('size', '100000'));
const workerCounts = argument('workers', '1,2').split(',').map(Number);
const perKind = Number(argument('queries', '25'));
/** `--malloc default`: glibc's defaults instead of the supervisor's settings. */
const mallocDefaults = argument('malloc', 'supervisor') === 'default';
const ADMIN = 'measure-admin';
const COLLECTION = 'competence-articles';

const articles: BenchArticle[] = Array.from(iterateFixtureDocuments(size, { seed: 7 }));
const dataDir = join(tmpdir(), `search-memory-${size}`);
if (!existsSync(join(dataDir, 'ready'))) {
  rmSync(dataDir, { recursive: true, force: true });
  const engine = new SearchEngine(new CollectionStore(dataDir));
  engine.createCollection(fixtureCollectionSchema(COLLECTION));
  for (let i = 0; i < articles.length; i += 1000) {
    const lines = articles.slice(i, i + 1000).map((a) => {
      const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = a as unknown as Record<string, unknown>;
      return JSON.stringify({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta });
    });
    engine.importDocuments(COLLECTION, lines.join('\n'), 'upsert', false, false);
  }
  engine.flush();
  mkdirSync(join(dataDir, 'ready'));
}

const queries = buildQueryMix(articles, perKind);
if (spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/build-server.mjs', import.meta.url))], { stdio: 'inherit' }).status !== 0) throw new Error('build failed');
const startScript = fileURLToPath(new URL('../dist/start.js', import.meta.url));
for (const workers of workerCounts) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, startScript], {
    env: { ...(mallocDefaults ? {} : SERVER_MALLOC_ENV), ...process.env, SEARCH_PORT: '0', SEARCH_HOST: '127.0.0.1', SEARCH_DATA_DIR: dataDir, SEARCH_WORKERS: String(workers), TYPESENSE_API_KEY: ADMIN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = performance.now();
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /\{"event":"listening"[^\n]*\}/.exec(buffered);
      if (match) resolve((JSON.parse(match[0]) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const loadSeconds = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const afterLoad = rssOfPid(child.pid as number);
  for (const query of queries) {
    const body = JSON.stringify({ searches: [{ collection: COLLECTION, ...query.params }] });
    const response = await fetch(`${url}/multi_search?x-typesense-api-key=${ADMIN}`, { method: 'POST', body });
    await response.text();
  }
  const afterQueries = rssOfPid(child.pid as number);
  // The same queries 32 at a time (as the benchmark's last level): the HTTP thread holds many answers at once.
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < queries.length) {
        const query = queries[next++];
        const body = JSON.stringify({ searches: [{ collection: COLLECTION, ...query?.params }] });
        await (await fetch(`${url}/multi_search?x-typesense-api-key=${ADMIN}`, { method: 'POST', body })).text();
      }
    }),
  );
  const afterConcurrent = rssOfPid(child.pid as number);
  const stats = (await (await fetch(`${url}/stats.json?x-typesense-api-key=${ADMIN}`)).json()) as { workerMemory?: { role: string; heapUsedMb: number; heapTotalMb: number; arrayBuffersMb: number }[] };
  const perWorker = (stats.workerMemory ?? []).map((w, i) => `worker ${i} (${w.role}): heap ${fmt(w.heapUsedMb, 0)}/${fmt(w.heapTotalMb, 0)} MB, array buffers ${fmt(w.arrayBuffersMb, 0)} MB`).join('; ');
  console.log(`${size} articles, ${workers} worker(s): listening after ${fmt(loadSeconds, 1)} s; server RSS after load ${fmt(afterLoad, 0)} MB, after ${queries.length} queries ${fmt(afterQueries, 0)} MB, after them again 32 at a time ${fmt(afterConcurrent, 0)} MB${perWorker ? `; ${perWorker}` : ''}`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
