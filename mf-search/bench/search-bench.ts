// Search benchmark (prints figures, asserts nothing):
// 1. time from the debounced query firing (User Timing mark `mf-search:query-fired`) to the
//    results painted, p50/p95 over a query list, in headless Chromium on the built standalone
//    page, against the embedded search server with the seeded corpus and with 10k articles;
// 2. the remote's JavaScript bytes (gzip) on the shell's search page and on an article page, before
//    and after the header search is first used (real stack);
// and the size of the search answers (multi_search response bodies) per search.
// Run: npm run build -w mf-search && npm run bench -w mf-search   (also needs the other builds for 2)
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { generateArticles, listArticles } from '@khs/content';
import { serveDirectory } from '@khs/static-server';
import { QUERY_FIRED_MARK } from '../src/components/ListSearchBox.js';
import { startSeededSearchServer, type SeededSearchServer } from '../src/testing/seededSearchServer.js';

const BUILT_DIST = path.resolve(import.meta.dirname, '../dist');
/** `BENCH_DIST=<a copy of an older dist>` measures that build's latency instead (A/B at the same machine load). */
const DIST = process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : BUILT_DIST;
/** The standalone page: `dist/standalone/` since the remote is built against the page's runtime (older builds: `dist/`). */
const STANDALONE_PATH = existsSync(path.join(DIST, 'standalone', 'index.html')) ? '/standalone/' : '/';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const LARGE_CORPUS = Number(process.env.BENCH_ARTICLES ?? 10_000);

/** Single words, two words, typos, prefixes: every query distinct, so no client cache hit. */
const QUERIES = [
  'leadership', 'feedback', 'coaching', 'negotiation', 'communication', 'presentation', 'wellbeing', 'meetings', 'trust', 'conflict',
  'remote teams', 'giving feedback', 'project planning', 'time management', 'data literacy', 'change management', 'team trust', 'agile working',
  'leadrship', 'feedbakc', 'negotaiting', 'comunication', 'presentaton', 'coachign', 'wellbeign', 'confilct',
  'lead', 'feed', 'coach', 'nego', 'commu', 'presen', 'manag', 'learn',
  'digital skills', 'diversity', 'inclusion', 'stakeholders', 'deadlines', 'mentoring',
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Milliseconds from the query mark to the first frame after the list shows that query's answer. */
/** Timings of one query, from its mark: the search response fully received, and the results painted. */
interface QueryTiming {
  response: number;
  painted: number;
}

function paintedAfterQuery([query, markName]: readonly [string, string]): Promise<QueryTiming> {
  return new Promise((resolve) => {
    const section = document.querySelector<HTMLElement>('.khs-search-list')!;
    const answered = () => section.dataset.query === query && section.dataset.status === 'idle';
    const finish = () => {
      observer.disconnect();
      // rAF runs before the frame that shows the change; the task after it runs once it painted.
      requestAnimationFrame(() =>
        setTimeout(() => {
          const mark = performance.getEntriesByName(markName).filter((entry) => (entry as PerformanceMark).detail === query).pop();
          if (!mark) return resolve({ response: Number.NaN, painted: Number.NaN });
          const requests = performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.includes('/multi_search') && entry.startTime >= mark.startTime) as PerformanceResourceTiming[];
          const responseEnd = Math.max(...requests.map((entry) => entry.responseEnd));
          resolve({ response: responseEnd - mark.startTime, painted: performance.now() - mark.startTime });
        }, 0),
      );
    };
    const observer = new MutationObserver(() => answered() && finish());
    observer.observe(section, { attributes: true, subtree: true, childList: true });
  });
}

async function measureLatency(browser: Browser, server: SeededSearchServer, label: string, pageUrl: string): Promise<void> {
  const page = await browser.newPage();
  // tsx (esbuild keepNames) wraps functions in `__name(...)`; the page needs it to run ours.
  await page.addInitScript('window.__name = (fn) => fn;');
  const { apiKey } = server.pageConfig().search.server;
  await page.goto(`${pageUrl}${STANDALONE_PATH}?server=${encodeURIComponent(server.url)}&key=${encodeURIComponent(apiKey)}`);
  await page.locator('.khs-search-list[data-status="idle"][data-query]').waitFor();
  const box = page.locator('.khs-search-list').getByRole('combobox');
  // Bodies of the search answers (the multi_search responses), as the browser received them.
  const answers: Array<Promise<number>> = [];
  page.on('response', (response) => {
    if (response.url().includes('/multi_search')) answers.push(response.body().then((body) => body.length, () => Number.NaN));
  });
  const timings: QueryTiming[] = [];
  const bytesPerSearch: number[] = [];
  for (const query of QUERIES) {
    const first = answers.length;
    const painted = page.evaluate(paintedAfterQuery, [query, QUERY_FIRED_MARK] as const);
    await box.fill(query);
    timings.push(await painted);
    const bodies = await Promise.all(answers.slice(first));
    bytesPerSearch.push(bodies.reduce((total, bytes) => total + bytes, 0));
  }
  await page.close();
  const valid = timings.filter((timing) => Number.isFinite(timing.painted));
  const line = (values: number[]) =>
    `p50 ${percentile(values, 50).toFixed(1)} ms  p95 ${percentile(values, 95).toFixed(1)} ms  max ${Math.max(...values).toFixed(1)} ms`;
  console.log(`${label}: ${valid.length}/${QUERIES.length} queries`);
  console.log(`  query fired -> results painted:   ${line(valid.map((timing) => timing.painted))}`);
  console.log(`  query fired -> responses received: ${line(valid.map((timing) => timing.response))}`);
  console.log(`  responses -> painted (render):     ${line(valid.map((timing) => timing.painted - timing.response))}`);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const sizes = bytesPerSearch.filter(Number.isFinite);
  console.log(
    `  response bytes per search (multi_search bodies, uncompressed): p50 ${kb(percentile(sizes, 50))}  p95 ${kb(percentile(sizes, 95))}  max ${kb(Math.max(...sizes))}  total ${kb(sizes.reduce((a, b) => a + b, 0))}`,
  );
}

async function measureRemoteBytes(browser: Browser): Promise<void> {
  const stackModule = path.resolve(import.meta.dirname, '../../e2e/harness/stack.ts');
  const shellBuilt = existsSync(path.resolve(import.meta.dirname, '../../shell/dist/client/shell-runtime.js'));
  if (!existsSync(stackModule) || !shellBuilt) {
    console.log('remote JS bytes: skipped (needs the e2e harness and `npm run build`)');
    return;
  }
  const { startStack } = (await import(stackModule)) as typeof import('../../e2e/harness/stack.js');
  const stack = await startStack();
  try {
    // Shared singletons (React, contracts) come from whichever container loads first; count them apart.
    const manifest = JSON.parse(readFileSync(path.join(DIST, 'mf-manifest.json'), 'utf8')) as { shared: Array<{ assets: { js: { sync: string[] } } }> };
    const sharedFiles = new Set(manifest.shared.flatMap((shared) => shared.assets.js.sync));
    const sum = (list: ScriptFile[], key: 'raw' | 'gzip') => list.reduce((total, file) => total + file[key], 0);
    const fileName = (file: ScriptFile) => path.basename(new URL(file.url).pathname);
    const report = (label: string, files: ScriptFile[]) => {
      const fromSearch = files.filter((file) => file.url.startsWith(stack.remotes['mf-search']!));
      const own = fromSearch.filter((file) => !sharedFiles.has(fileName(file)));
      const shared = fromSearch.filter((file) => !own.includes(file));
      console.log(`mf-search's own JS ${label}: ${own.length} files, ${sum(own, 'gzip')} B gzip (${sum(own, 'raw')} B raw)`);
      for (const file of own.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${String(file.gzip).padStart(7)} B gzip  ${fileName(file)}`);
      console.log(`  shared singletons this page happened to take from mf-search: ${shared.length} files, ${sum(shared, 'gzip')} B gzip`);
      console.log(`  whole page JS: ${files.length} files, ${sum(files, 'gzip')} B gzip`);
    };

    const searchPage = await trackScripts(browser);
    await searchPage.page.goto(new URL('/search', stack.url).href);
    await searchPage.page.locator('.khs-search-list[data-status="idle"][data-query]').waitFor();
    report('on /search', await searchPage.files());
    await searchPage.page.close();

    // An article page: the header search alone, before and after the visitor uses it.
    const article = await trackScripts(browser);
    await article.page.goto(new URL(listArticles()[0]!.url, stack.url).href);
    // Every island of the first view (those waiting to be scrolled to stay as they are).
    await article.page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLElement>('[data-island]')]
        .filter((el) => el.getAttribute('data-island-hydrate') !== 'visible' || el.getBoundingClientRect().top < window.innerHeight)
        .every((el) => el.hasAttribute('data-island-state')),
    );
    await article.page.waitForLoadState('networkidle');
    const beforeUse = await article.files();
    report(`on ${listArticles()[0]!.url} before the header search is used`, beforeUse);
    const box = article.page.locator('.site-header').getByRole('combobox');
    await box.focus();
    await box.pressSequentially('feedback');
    await article.page.locator('.site-header').getByRole('option').first().waitFor();
    const afterUse = (await article.files()).slice(beforeUse.length);
    console.log(`  loaded on first use of the header search (focus, type, suggestions shown): ${afterUse.length} files, ${sum(afterUse, 'gzip')} B gzip`);
    for (const file of afterUse.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${String(file.gzip).padStart(7)} B gzip  ${fileName(file)}`);
    await article.page.close();
  } finally {
    await stack.close();
  }
}

interface ScriptFile {
  url: string;
  raw: number;
  gzip: number;
}

/** A new page recording every script it downloads (bodies recompressed with gzip -9). */
async function trackScripts(browser: Browser): Promise<{ page: Page; files(): Promise<ScriptFile[]> }> {
  const page = await browser.newPage();
  const bodies: Array<Promise<ScriptFile>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    // A script still arriving when the page closes (a late island) counts as empty.
    bodies.push(response.body().catch(() => Buffer.alloc(0)).then((body) => ({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
  });
  return { page, files: () => Promise.all(bodies) };
}

const loadAverage = () => os.loadavg().map((value) => value.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  // Latency figures depend on how busy the machine is: print it with them.
  console.log(`load average (1/5/15 min) at start: ${loadAverage()} on ${os.cpus().length} cores`);
  if (!existsSync(path.join(DIST, STANDALONE_PATH, 'index.html'))) throw new Error('Build first: npm run build -w mf-search');
  // A copy, so a rebuild running meanwhile (it cleans dist/) cannot pull files from under the page.
  const copy = mkdtempSync(path.join(os.tmpdir(), 'mf-search-bench-'));
  cpSync(DIST, copy, { recursive: true });
  const site = await serveDirectory({ dir: copy });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const seeded = await startSeededSearchServer({ allowedOrigins: [site.url] });
    await measureLatency(browser, seeded, 'seeded corpus', site.url);
    await seeded.close();

    let started = performance.now();
    const large = await startSeededSearchServer({ articles: generateArticles(LARGE_CORPUS), allowedOrigins: [site.url] });
    console.log(`(${LARGE_CORPUS} generated articles indexed in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    started = performance.now();
    await measureLatency(browser, large, `${LARGE_CORPUS} articles`, site.url);
    await large.close();

    console.log(`load average at the end of the latency runs: ${loadAverage()}`);
    // The real stack serves the built dist only.
    if (DIST === BUILT_DIST) await measureRemoteBytes(browser);
  } finally {
    await browser.close();
    await site.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

await main();
