// Search page against article page benchmark (prints figures, asserts nothing). Both pages on the
// same shell, in interleaved rounds (article, search, search with distinct queries), each figure
// the median of the rounds' ratios, so the figures hold on a busy machine too:
//  1. one address each (`/search?q=team` and an article), 10 connections: requests/s and p97.5;
//  2. distinct queries (every request a query not rendered before in this run): requests/s, and
//     the share of pages whose list was rendered on the server (past 4 list renders at once
//     mf-search leaves the list to the browser, a cheaper page: see the "whole" column).
// BENCH_BASELINE_DIST=<a copy of an older mf-search/dist> measures that build too, in the same
// run: each round deploys one build to mf-search's origin, measures, deploys the other and
// measures again (the order alternates by round), and each build's figures are its own rounds'.
// BENCH_LOADS=search (or article, distinct; comma-separated) runs only those loads: with
// BENCH_CPU_PROFILE=<folder> (a V8 CPU profile of the shell for the whole run: open it in Chrome
// DevTools' Performance panel, or read its top functions with
// `node scripts/testing/cpu-profile-top.mjs <file>`) the profile is of that load alone.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { listArticles } from '@khs/content';
import { deploy } from '@khs/deploy';
import { REPO_ROOT, startStack } from '../e2e/harness/stack.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const LOADS = new Set((process.env.BENCH_LOADS ?? 'article,search,distinct').split(',').map((name) => name.trim()));
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
const profileDir = process.env.BENCH_CPU_PROFILE;
if (profileDir) mkdirSync(profileDir, { recursive: true });

const work = BASELINE_DIST ? mkdtempSync(path.join(os.tmpdir(), 'khs-bench-search-page-')) : undefined;
const stack = await startStack({
  env: profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {},
  ...(work ? { deployedOrigins: path.join(work, 'origins') } : {}),
});
const article = listArticles()[0]!;
const articleUrl = new URL(article.url, stack.url).href;
const searchUrl = new URL('/search?q=team', stack.url).href;

/** The builds measured: this checkout's, and the baseline's when given. */
const builds: Array<{ name: string; dist: string }> = [
  { name: 'this build', dist: path.join(REPO_ROOT, 'mf-search/dist') },
  ...(BASELINE_DIST ? [{ name: 'baseline', dist: path.resolve(BASELINE_DIST) }] : []),
];
const versionOf = (dist: string) => JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;

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

/** Waits until `url` renders every island (a shareable page), with `version` of mf-search when given. */
async function warm(url: string, version?: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const response = await fetch(url);
    const html = await response.text();
    const whole = response.ok && !(response.headers.get('cache-control') ?? '').includes('private');
    if (whole && (!version || html.includes(`/versions/${version}/`))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not render every island${version ? ` with mf-search ${version}` : ''} within 60 s`);
}

/** The process listening on `port` (the shell), for its CPU time. */
function pidListening(port: string): number | undefined {
  const listing = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(listing)?.[1];
  return pid ? Number(pid) : undefined;
}
const shellPid = pidListening(new URL(stack.url).port);
const TICKS_PER_MS = 100 / 1000; // USER_HZ

/** The shell's CPU time so far (user + system, all its threads), ms; NaN when it cannot be read. */
function shellCpuMs(): number {
  if (!shellPid) return Number.NaN;
  const fields = readFileSync(`/proc/${shellPid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
}

/**
 * A run's figures; how many of its pages came whole (a page whose island was left to the browser
 * is `private`); and the shell's CPU time per response, which a loaded machine stretches far less
 * than latency or throughput (time the shell waits for a core is not in it).
 */
type Result = autocannon.Result & { whole: number; degraded: number; cpuMsPerResponse: number };
async function load(url: string, setupRequest?: autocannon.Request['setupRequest'], duration = DURATION_S): Promise<Result> {
  let whole = 0;
  let degraded = 0;
  const cpuBefore = shellCpuMs();
  const onResponse = (_status: number, _body: string, _context: object, headers: IncomingHttpHeaders | undefined) => {
    if (String(headers?.['cache-control'] ?? '').includes('private')) degraded += 1;
    else whole += 1;
  };
  const result = (await autocannon({ url, connections: CONNECTIONS, duration, requests: [{ ...(setupRequest ? { setupRequest } : {}), onResponse }] })) as autocannon.Result;
  return { ...result, whole, degraded, cpuMsPerResponse: (shellCpuMs() - cpuBefore) / (whole + degraded) };
}

function row(name: string, result: Result): string {
  const wholeShare = result.whole + result.degraded > 0 ? `${((result.whole / (result.whole + result.degraded)) * 100).toFixed(0)} %` : '-';
  return `${name.padEnd(48)} ${result.requests.average.toFixed(0).padStart(7)} ${String(result.latency.p50).padStart(7)} ${String(result.latency.p97_5).padStart(8)} ${String(result.errors + result.non2xx).padStart(7)} ${wholeShare.padStart(7)} ${result.cpuMsPerResponse.toFixed(2).padStart(10)}`;
}

const loadAverage = () => os.loadavg().map((value) => value.toFixed(1)).join(' ');

try {
  const queries = distinctQueries();
  let next = 0;
  const distinctLoad = () => load(searchUrl, (request) => ({ ...request, path: `/search?q=${encodeURIComponent(queries[next++ % queries.length]!)}` }));

  /** Makes `build` the live mf-search (with a baseline) and warms the pages and the JIT; the warm-up is discarded. */
  async function makeLive(build: { dist: string }): Promise<void> {
    let version: string | undefined;
    if (work) {
      version = versionOf(build.dist);
      await deploy({ from: build.dist, target: path.join(work, 'origins', 'mf-search') });
    }
    await warm(articleUrl);
    await warm(searchUrl, version);
    if (LOADS.has('article')) await load(articleUrl, undefined, 2);
    if (LOADS.has('search')) await load(searchUrl, undefined, 2);
    if (LOADS.has('distinct')) await distinctLoad();
  }

  type Round = { article?: Result; search?: Result; distinct?: Result };
  const rounds = new Map(builds.map((build) => [build.name, [] as Round[]]));
  console.log(`\nSearch page vs article page: ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections, ${DURATION_S} s each, ${os.cpus().length} cores`);
  console.log(`${'run'.padEnd(48)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p97.5 ms'.padStart(8)} ${'errors'.padStart(7)} ${'whole'.padStart(7)} ${'CPU ms/req'.padStart(10)}`);
  console.log("(whole: pages with every island rendered on the server; a list render past mf-search's 4 at once is left to the browser. CPU ms/req: the shell's CPU time per response)");
  for (let round = 1; round <= ROUNDS; round += 1) {
    // The order alternates, so drift of the machine's load falls on both builds alike.
    const order = round % 2 ? builds : [...builds].reverse();
    for (const build of order) {
      if (builds.length > 1 || round === 1) await makeLive(build);
      const label = builds.length > 1 ? `${round} ${build.name}` : `${round}`;
      const result: Round = {};
      if (LOADS.has('article')) console.log(row(`${label}: article`, (result.article = await load(articleUrl))));
      if (LOADS.has('search')) console.log(row(`${label}: /search?q=team (one address)`, (result.search = await load(searchUrl))));
      if (LOADS.has('distinct')) {
        const before = next;
        result.distinct = await distinctLoad();
        console.log(row(`${label}: /search, ${next - before} distinct queries`, result.distinct));
      }
      rounds.get(build.name)!.push(result);
    }
    console.log(`   load average after round ${round}: ${loadAverage()}`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`\nload average ${loadAverage()} (1, 5, 15 min); each figure the median of the rounds' ratios`);
  for (const build of builds) {
    const results = rounds.get(build.name)!;
    const figure = (name: string, values: number[], goal: string) => {
      if (values.some((value) => !Number.isFinite(value))) return;
      console.log(`${build.name}: ${name}`.padEnd(74), `${median(values).toFixed(2).padStart(6)}  (rounds: ${values.map((value) => value.toFixed(2)).join(', ')}; goal ${goal})`);
    };
    if (!results[0]?.article) continue;
    const ratio = (pick: (round: Round) => number | undefined) => results.map((round) => pick(round) ?? Number.NaN);
    figure('search throughput ÷ article throughput, one address each', ratio((r) => r.search && r.search.requests.average / r.article!.requests.average), '≥ 0.5');
    figure('search throughput ÷ article throughput, distinct queries', ratio((r) => r.distinct && r.distinct.requests.average / r.article!.requests.average), '≥ 0.4');
    figure('search p97.5 ÷ article p97.5, one address each', ratio((r) => r.search && r.search.latency.p97_5 / r.article!.latency.p97_5), '≤ 2');
    // What the shell's CPU allows: the article's CPU time per page ÷ the search page's.
    figure('article CPU ÷ search CPU per page, one address (shell)', ratio((r) => r.search && r.article!.cpuMsPerResponse / r.search.cpuMsPerResponse), '≥ 0.5');
    figure('article CPU ÷ search CPU per page, distinct queries (shell)', ratio((r) => r.distinct && r.article!.cpuMsPerResponse / r.distinct.cpuMsPerResponse), '≥ 0.4');
  }
} finally {
  await stack.close();
  if (work) rmSync(work, { recursive: true, force: true });
  if (profileDir) console.log(`CPU profile of the shell in ${profileDir}`);
}
