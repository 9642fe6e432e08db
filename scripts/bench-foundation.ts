// Foundation benchmark (prints figures, asserts nothing):
//  1. JavaScript bytes (gzip) a browser downloads for an article page read to the end (every
//     island hydrated), per origin and in total (the first view alone: bench-page-weight.ts);
//  2. requests/second and latency of the article page and of /search?q=leadership, each rendered
//     with federated server rendering (every island rendered by its remote's server build), side
//     by side with the same bytes served as a static file by the same shell process (ratio, goal);
//  3. server render time per island (p50/p99, from the shell's Server-Timing header);
//  4. first byte of an article whose mf-survey server render is slowed to 800 ms (a test variant),
//     the streaming shell next to one whose headers wait for every island (PAGE_HEAD_BUDGET_MS = the
//     island budget: the render before streaming), same run, requests alternated; with the load
//     average. `BENCH_ONLY=first-byte` runs this section alone.
// With BENCH_BASELINE_ROOT (a built checkout of an older commit, see benchCheckouts.ts), §1–§3 run
// on both checkouts' stacks, up at once, taking turns (§2 load by load, §3 request by request), the
// figures side by side with the load average; §4 is a before/after of its own (this checkout only).
import { writeFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import { createBrotliDecompress } from 'node:zlib';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { listArticles, listSurveys } from '@khs/content';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/chromium.js';
import { startStack, type Stack } from '../e2e/harness/stack.js';
import { buildSlowSurvey, SLOW_SURVEY_MARKER } from '../e2e/harness/slowSurvey.js';
import { benchCheckouts, inTurn, loadAverage, startStackOf, type BenchStack } from './benchCheckouts.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const SEQUENTIAL_RENDERS = Number(process.env.BENCH_ISLAND_RENDERS ?? 200);
/** Distinct queries for fresh search-list renders. */
const QUERIES = ['team', 'feedback', 'change', 'remote', 'conflict', 'coach', 'learning', 'data', 'time', 'meeting', 'goal', 'trust', 'plan', 'project', 'skill', 'present', 'negotiat', 'well', 'divers', 'agile', 'leader', 'manage', 'listen', 'decide', 'habit', 'stress', 'review', 'culture', 'mentor', 'career', 'focus', 'energy', 'writing', 'speak', 'budget', 'risk', 'story', 'hybrid', 'onboard', 'growth'];

/** Requests per shell in §4. */
const FIRST_BYTE_REQUESTS = Number(process.env.BENCH_FIRST_BYTE_REQUESTS ?? 40);
/** The slowed server render of §4, ms (the issue's figure). */
const SLOW_SURVEY_MS = 800;

if (process.env.BENCH_ONLY === 'first-byte') {
  await firstByteWithSlowIsland();
  process.exit(0);
}

// Island render times come from the Server-Timing header, which the shell sends only when asked
// (its head then waits for every island: §1–§3 measure whole pages, not streamed ones).
const checkouts = benchCheckouts();
const stacks: Array<{ name: string; root: string; stack: BenchStack }> = [];
// An article with a survey: every kind of island is on its page.
const surveyHandles = new Set(listSurveys().map((survey) => survey.formHandle));
const article = listArticles().find((candidate) => candidate.surveyHandle && surveyHandles.has(candidate.surveyHandle)) ?? listArticles()[0]!;
const PAGE_PATHS = { article: article.url, search: '/search?q=leadership' } as const;
const staticFiles: string[] = [];

/** Waits until the shell renders `url` with every island from its remote (warm-up after start). */
async function untilServerRendered(url: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(url);
    const html = await response.text();
    if (!(response.headers.get('server-timing') ?? 'placeholder').includes('placeholder')) return html;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not server-rendered by every remote within 20 s`);
}

function percentileOf(values: number[], p: number): number {
  return [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? NaN;
}

/** A row's cells for every checkout, side by side (`-` where a checkout has no figure). */
const sideBySide = (cells: Array<string[] | undefined>, widths: number[]) =>
  cells.map((row) => widths.map((width, index) => (row?.[index] ?? '-').padStart(width)).join(' ')).join(' |');

interface ScriptsFigures {
  origins: Map<string, { files: number; raw: number; gzip: number }>;
  states: string[];
}

/** §1: the scripts a browser downloads for the article page read to the end, per origin. */
async function scriptsOfArticle(stack: BenchStack): Promise<ScriptsFigures> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const scripts: Array<{ url: string; raw: number; gzip: number }> = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  });
  await page.goto(new URL(PAGE_PATHS.article, stack.url).href, { waitUntil: 'networkidle' });
  // Every island, those that wait to be seen (a reader scrolls to each) or for an interaction (the
  // reader points at it: the header's search) too: the whole page's JS.
  await page.evaluate(async () => {
    for (const element of document.querySelectorAll('[data-island-hydrate="visible"]')) {
      element.scrollIntoView({ block: 'center' });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    for (const element of document.querySelectorAll('[data-island-hydrate="interaction"]')) element.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((el) => el.hasAttribute('data-island-state')));
  await page.waitForLoadState('networkidle');
  const states = await page.evaluate(() => [...document.querySelectorAll('[data-island]')].map((el) => `${el.getAttribute('data-island')}=${el.getAttribute('data-island-state')}`));
  await browser.close();

  const origins = new Map<string, { files: number; raw: number; gzip: number }>();
  const originName = (url: string) => {
    const origin = new URL(url).origin;
    const remote = Object.entries(stack.remotes).find(([, value]) => value === origin)?.[0];
    return remote ?? (origin === new URL(stack.url).origin ? 'shell' : origin);
  };
  for (const script of scripts) {
    for (const key of [originName(script.url), 'total']) {
      const entry = origins.get(key) ?? { files: 0, raw: 0, gzip: 0 };
      origins.set(key, { files: entry.files + 1, raw: entry.raw + script.raw, gzip: entry.gzip + script.gzip });
    }
  }
  return { origins, states };
}

function printScripts(figures: ScriptsFigures[]): void {
  console.log(`\nJavaScript downloaded for ${article.url} (bodies recompressed with gzip -9)${stacks.length > 1 ? `; ${stacks.map(({ name }) => name).join(' | ')}` : ''}`);
  const widths = [6, 10, 10];
  console.log('origin'.padEnd(16), sideBySide(stacks.map(() => ['files', 'raw B', 'gzip B']), widths));
  const names = [...new Set(figures.flatMap(({ origins }) => [...origins.keys()]))].filter((name) => name !== 'total').sort();
  for (const name of [...names, 'total']) {
    const rows = figures.map(({ origins }) => origins.get(name)).map((entry) => entry && [String(entry.files), String(entry.raw), String(entry.gzip)]);
    console.log(name.padEnd(16), sideBySide(rows, widths));
  }
  for (const [index, { states }] of figures.entries()) console.log(`islands (${stacks[index]!.name}): ${states.join(', ')}`);
}

/** What the errors were: the status codes other than 2xx and the failed connections, e.g. ` (503×120, 2 timeouts)`. */
function refusals(result: autocannon.Result): string {
  const codes = Object.entries((result as autocannon.Result & { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, { count }]) => `${code}×${count}`);
  if (result.timeouts) codes.push(`${result.timeouts} timeouts`);
  return codes.length ? ` (${codes.join(', ')})` : '';
}

/** §2: federated server rendering vs the same bytes as a static file, same process; the stacks take turns. */
async function underLoad(): Promise<void> {
  const load = (url: string) => autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 }) as Promise<autocannon.Result>;
  const goals = [
    { name: 'article page', pagePath: PAGE_PATHS.article, goal: 0.5 },
    { name: '/search?q=leadership', pagePath: PAGE_PATHS.search, goal: 0.35 },
  ];
  console.log(`\nUnder load: ${CONNECTIONS} connections, ${DURATION_S} s each (a warm-up pass per page is discarded); the stacks take turns (rendered in order, static in reverse)`);
  console.log('page'.padEnd(22), 'checkout'.padEnd(11), 'variant'.padEnd(14), 'bytes'.padStart(8), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7), '  load average');
  const ratios: string[] = [];
  for (const { name, pagePath, goal } of goals) {
    const targets: Array<{ url: string; staticUrl: string; html: string }> = [];
    for (const { root, stack } of stacks) {
      const url = new URL(pagePath, stack.url).href;
      const html = await untilServerRendered(url);
      const staticName = `bench-page-${process.pid}-${staticFiles.length}.html`;
      const staticFile = path.join(root, 'shell/public', staticName);
      staticFiles.push(staticFile);
      writeFileSync(staticFile, html);
      await load(url);
      targets.push({ url, staticUrl: new URL(`/static/${staticName}`, stack.url).href, html });
    }
    const rendered: autocannon.Result[] = [];
    const staticResults: autocannon.Result[] = [];
    for (const [index, target] of inTurn(targets, 0)) rendered[index] = await load(target.url);
    for (const [index, target] of inTurn(targets, 1)) staticResults[index] = await load(target.staticUrl);
    const loadAfter = loadAverage();
    for (const [index, { name: checkout }] of stacks.entries()) {
      for (const [variant, result] of [['federated SSR', rendered[index]!], ['static file', staticResults[index]!]] as const) {
        console.log(
          name.padEnd(22),
          checkout.padEnd(11),
          variant.padEnd(14),
          String(targets[index]!.html.length).padStart(8),
          result.requests.average.toFixed(0).padStart(9),
          String(result.latency.p50).padStart(8),
          String(result.latency.p99).padStart(8),
          String(result.errors + result.non2xx).padStart(7),
          `  ${loadAfter}`,
          refusals(result),
        );
      }
      const ratio = rendered[index]!.requests.average / staticResults[index]!.requests.average;
      ratios.push(`${name} (${checkout}): federated SSR = ${(ratio * 100).toFixed(0)}% of static req/s (goal >= ${goal * 100}%: ${ratio >= goal ? 'met' : 'NOT met'})`);
    }
  }
  for (const line of ratios) console.log(line);
}

interface RenderTimes {
  /** Per stack: Server-Timing's islands and the whole answer's time (`page: …`, ms, as the client saw it). */
  timings: Array<Map<string, number[]>>;
  /** Per stack: each answer's HTML (decompressed), bytes, by page type. */
  htmlBytes: Array<Map<string, number[]>>;
}

async function renderTimes(paths: string[]): Promise<RenderTimes> {
  const timings = stacks.map(() => new Map<string, number[]>());
  const htmlBytes = stacks.map(() => new Map<string, number[]>());
  const add = (map: Map<string, number[]>, key: string, value: number) => map.set(key, [...(map.get(key) ?? []), value]);
  for (const [run, pagePath] of paths.entries()) {
    for (const [index, { stack }] of inTurn(stacks, run)) {
      const started = performance.now();
      const response = await fetch(new URL(pagePath, stack.url));
      const body = await response.arrayBuffer();
      const pageType = pagePath.startsWith('/search') ? 'search' : 'article';
      add(timings[index]!, `page: ${pageType} (whole answer)`, performance.now() - started);
      add(htmlBytes[index]!, pageType, body.byteLength);
      // An answer other than 200 carries no island timing: counted, so a refusal is not read as a fast render.
      if (response.status !== 200) add(timings[index]!, `page: ${pageType} answered ${response.status}`, performance.now() - started);
      for (const entry of (response.headers.get('server-timing') ?? '').split(',')) {
        const match = /desc="([^"]+)";dur=([\d.]+)/.exec(entry);
        if (match) add(timings[index]!, match[1]!, Number(match[2]));
      }
    }
  }
  return { timings, htmlBytes };
}

function printRenderTimes(title: string, { timings, htmlBytes }: RenderTimes): void {
  console.log(`\n${title}; load average ${loadAverage()} after`);
  const widths = [8, 8, 8];
  console.log(''.padEnd(48), sideBySide(stacks.map(({ name }) => [name, '', '']), widths));
  console.log('island'.padEnd(48), sideBySide(stacks.map(() => ['renders', 'p50 ms', 'p99 ms']), widths));
  for (const name of [...new Set(timings.flatMap((map) => [...map.keys()]))].sort()) {
    const rows = timings.map((map) => map.get(name)).map((values) => values && [String(values.length), percentileOf(values, 0.5).toFixed(2), percentileOf(values, 0.99).toFixed(2)]);
    console.log(name.padEnd(48), sideBySide(rows, widths));
  }
  console.log('HTML bytes (decompressed)'.padEnd(48), sideBySide(stacks.map(() => ['pages', 'mean B', 'max B']), widths));
  for (const pageType of ['article', 'search']) {
    const rows = htmlBytes.map((map) => map.get(pageType)).map((values) => values && [String(values.length), (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(0), String(Math.max(...values))]);
    console.log(`  ${pageType}`.padEnd(48), sideBySide(rows, widths));
  }
}

try {
  for (const { name, root } of checkouts) stacks.push({ name, root, stack: await startStackOf(root, { ISLAND_SERVER_TIMING: 'on' }) });
  console.log(`load average (1 / 5 / 15 min) with ${stacks.length} stack(s) up: ${loadAverage()}`);
  // 1. JavaScript bytes (bytes do not depend on the load: one checkout after the other).
  const scripts: ScriptsFigures[] = [];
  for (const { stack } of stacks) scripts.push(await scriptsOfArticle(stack));
  printScripts(scripts);

  // 2. Federated server rendering vs the same bytes as a static file, same process.
  await underLoad();

  // 3. Server render time per island (load + render, sequential requests, warm). Fresh renders:
  // every article and 40 distinct queries once each (nothing to reuse); reused: the two pages
  // above again and again (islands that allow it are served from the shell's render cache).
  // The stacks take turns request by request.
  const fresh = [...listArticles().map((candidate) => candidate.url), ...QUERIES.map((query) => `/search?q=${encodeURIComponent(query)}`)];
  const repeated = Array.from({ length: SEQUENTIAL_RENDERS }, (_, index) => (index % 2 ? PAGE_PATHS.article : PAGE_PATHS.search));
  printRenderTimes(`Server render time per island, fresh: ${fresh.length} distinct pages (every article, ${QUERIES.length} queries), each once`, await renderTimes(fresh));
  printRenderTimes(
    `Server render time per island, repeated: the two pages above ${SEQUENTIAL_RENDERS / 2} times each ("reused": from the shell's render cache)`,
    await renderTimes(repeated),
  );
} finally {
  for (const file of staticFiles) rmSync(file, { force: true });
  for (const { stack } of stacks) await stack.close();
}

await firstByteWithSlowIsland();

/** One GET as a browser sends it (brotli): when its first byte, the slow island's HTML and its end arrived, ms after sending. */
function timedGet(url: string): Promise<{ firstByte: number; island: number | undefined; end: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    httpRequest(url, { headers: { 'accept-encoding': 'br' } }, (response) => {
      const firstByte = performance.now() - started;
      let island: number | undefined;
      let text = '';
      const body = response.headers['content-encoding'] === 'br' ? response.pipe(createBrotliDecompress()) : response;
      body.on('data', (chunk: Buffer) => {
        text += String(chunk);
        if (island === undefined && text.includes(SLOW_SURVEY_MARKER)) island = performance.now() - started;
      });
      body.on('end', () => resolve({ firstByte, island, end: performance.now() - started }));
      body.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** §4: first byte with mf-survey's server render slowed to 800 ms, streaming vs waiting for every island. */
async function firstByteWithSlowIsland(): Promise<void> {
  const variant = await buildSlowSurvey(SLOW_SURVEY_MS);
  const stacks: Array<{ name: string; stack: Stack }> = [];
  try {
    // The shell's own head budget (the e2e harness raises it for tests: e2e/harness/stack.ts).
    stacks.push({ name: 'streamed (now)', stack: await startStack({ env: { PAGE_HEAD_BUDGET_MS: '' } }) });
    stacks.push({ name: 'waits for every island (before)', stack: await startStack({ env: { PAGE_HEAD_BUDGET_MS: '1000' } }) });
    const surveyHandles = new Set(listSurveys().map((survey) => survey.formHandle));
    const article = listArticles().find((candidate) => candidate.surveyHandle && surveyHandles.has(candidate.surveyHandle))!;
    for (const { stack } of stacks) {
      stack.serveRemote('mf-survey', variant.dist);
      // Until the shell renders with the variant (it polls the manifests), then a few warm-up pages.
      for (let attempt = 0; ; attempt += 1) {
        const timed = await timedGet(new URL(article.url, stack.url).href);
        if (timed.island !== undefined && attempt >= 5) break;
        if (attempt > 200) throw new Error('the shell did not render the slow survey variant');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const figures = stacks.map(() => ({ firstByte: [] as number[], island: [] as number[], end: [] as number[], withIsland: 0 }));
    const load = os.loadavg()[0]!;
    for (let round = 0; round < FIRST_BYTE_REQUESTS; round += 1) {
      for (const [index, { stack }] of stacks.entries()) {
        const timed = await timedGet(new URL(article.url, stack.url).href);
        const figure = figures[index]!;
        figure.firstByte.push(timed.firstByte);
        figure.end.push(timed.end);
        if (timed.island !== undefined) {
          figure.island.push(timed.island);
          figure.withIsland += 1;
        }
      }
    }
    console.log(
      `\nFirst byte of ${article.url} with mf-survey's server render slowed to ${SLOW_SURVEY_MS} ms (a test variant), ${FIRST_BYTE_REQUESTS} sequential requests per shell, alternated; load average ${load.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after`,
    );
    console.log('shell'.padEnd(34), 'first byte p50/p95 ms'.padStart(22), "survey's HTML p50/p95 ms".padStart(26), 'end p50/p95 ms'.padStart(16), 'with survey HTML'.padStart(17));
    const pair = (values: number[]) => `${percentileOf(values, 0.5).toFixed(0)} / ${percentileOf(values, 0.95).toFixed(0)}`;
    for (const [index, { name }] of stacks.entries()) {
      const figure = figures[index]!;
      console.log(name.padEnd(34), pair(figure.firstByte).padStart(22), pair(figure.island).padStart(26), pair(figure.end).padStart(16), `${figure.withIsland}/${FIRST_BYTE_REQUESTS}`.padStart(17));
    }
    const p95 = percentileOf(figures[0]!.firstByte, 0.95);
    console.log(`streamed first byte p95 ${p95.toFixed(0)} ms (goal <= 50 ms: ${p95 <= 50 ? 'met' : 'NOT met'})`);
  } finally {
    for (const { stack } of stacks) await stack.close();
    rmSync(variant.work, { recursive: true, force: true });
  }
}
