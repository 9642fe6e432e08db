// Search page against article page benchmark (prints figures, asserts nothing). Both pages on the
// same shell, in interleaved rounds (article, search, search with distinct queries), each figure
// the median of the rounds' ratios, so the figures hold on a busy machine too:
//  1. one address each (`/search?q=team` and an article), 10 connections: requests/s and p97.5;
//  2. distinct queries (every request a query not rendered before in this run): requests/s.
// BENCH_CPU_PROFILE=<folder> also writes a V8 CPU profile of the shell for the whole run
// (open it in Chrome DevTools' Performance panel, or read its top functions with
// `node scripts/testing/cpu-profile-top.mjs <file>`).
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { listArticles } from '@khs/content';
import { startStack } from '../e2e/harness/stack.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const profileDir = process.env.BENCH_CPU_PROFILE;
if (profileDir) mkdirSync(profileDir, { recursive: true });

const stack = await startStack({
  env: profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {},
});
const article = listArticles()[0]!;
const articleUrl = new URL(article.url, stack.url).href;
const searchUrl = new URL('/search?q=team', stack.url).href;

/** Words of the corpus's titles, two at a time: distinct queries that find something. */
function distinctQueries(): string[] {
  const words = [...new Set(listArticles().flatMap((entry) => entry.title.toLowerCase().match(/[a-z]{4,}/g) ?? []))];
  const queries: string[] = [];
  for (let first = 0; first < words.length; first += 1) {
    for (let second = 0; second < words.length && queries.length < 20_000; second += 1) {
      if (first !== second) queries.push(`${words[first]} ${words[second]!.slice(0, 3)}`);
    }
  }
  return queries;
}

async function warm(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.ok && !(response.headers.get('cache-control') ?? '').includes('private')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not render every island within 20 s`);
}

type Result = autocannon.Result;
const load = (url: string, requests?: autocannon.Request[]) =>
  autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, ...(requests ? { requests } : {}) }) as Promise<Result>;

function row(name: string, result: Result): string {
  return `${name.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p97_5).padStart(8)} ${String(result.errors + result.non2xx).padStart(7)}`;
}

try {
  await warm(articleUrl);
  await warm(searchUrl);
  // One pass each to warm the JIT and the caches; discarded.
  await load(articleUrl);
  await load(searchUrl);
  const queries = distinctQueries();
  let next = 0;
  const rounds: Array<{ article: Result; search: Result; distinct: Result }> = [];
  console.log(`\nSearch page vs article page: ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections, ${DURATION_S} s each`);
  console.log(`${'run'.padEnd(34)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p97.5 ms'.padStart(8)} ${'errors'.padStart(7)}`);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const article = await load(articleUrl);
    const search = await load(searchUrl);
    const before = next;
    const distinct = await load(searchUrl, [
      { setupRequest: (request) => ({ ...request, path: `/search?q=${encodeURIComponent(queries[next++ % queries.length]!)}` }) },
    ]);
    rounds.push({ article, search, distinct });
    console.log(row(`${round}: article`, article));
    console.log(row(`${round}: /search?q=team (one address)`, search));
    console.log(row(`${round}: /search, ${next - before} distinct queries`, distinct));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const figure = (name: string, values: number[], goal: string) =>
    console.log(`${name.padEnd(62)} ${median(values).toFixed(2).padStart(6)}  (rounds: ${values.map((value) => value.toFixed(2)).join(', ')}; goal ${goal})`);
  console.log(`load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}; each figure the median of the rounds' ratios`);
  figure('search throughput ÷ article throughput, one address each', rounds.map((r) => r.search.requests.average / r.article.requests.average), '≥ 0.5');
  figure('search throughput ÷ article throughput, distinct queries', rounds.map((r) => r.distinct.requests.average / r.article.requests.average), '≥ 0.4');
  figure('search p97.5 ÷ article p97.5, one address each', rounds.map((r) => r.search.latency.p97_5 / r.article.latency.p97_5), '≤ 2');
} finally {
  await stack.close();
  if (profileDir) console.log(`CPU profile of the shell in ${profileDir}`);
}
