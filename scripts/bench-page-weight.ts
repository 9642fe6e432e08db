// Page-weight benchmark (issue 14; prints figures, asserts nothing). For the article, search and
// watchlist pages, in Chromium:
//  - scripts loaded before interaction (no scrolling, no input): count and gzip -9 KB;
//  - bytes transferred (encoded bodies, as on the wire) until the first view is ready;
//  - with a throttled phone profile (1.6 Mbit/s down, 150 ms RTT, CPU 4× slower; empty cache),
//    largest contentful paint and the time until every island in view is ready, median of 5;
// for this checkout and, side by side, a baseline checkout (BENCH_BASELINE_ROOT: another built
// worktree, e.g. `git worktree add --detach /tmp/baseline <commit>` + `npm ci` + `npm run build`),
// each run as its own whole stack (shell + remotes' static servers + search server).
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { listArticles, listSurveys } from '@khs/content';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/chromium.js';
import { REPO_ROOT } from '../e2e/harness/stack.js';

const RUNS = Number(process.env.BENCH_THROTTLED_RUNS ?? 5);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
/** The throttled profile of the issue. */
const THROTTLE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpuRate: 4 };
const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1280, height: 720 };

interface StackLike {
  url: string;
  close(): Promise<void>;
}

interface Figures {
  scripts: number;
  scriptsGzip: number;
  transferred: number;
  lcp: number[];
  islandsReady: number[];
}

const surveyHandles = new Set(listSurveys().map((survey) => survey.formHandle));
const article = listArticles().find((candidate) => candidate.surveyHandle && surveyHandles.has(candidate.surveyHandle)) ?? listArticles()[0]!;
const PAGES = [
  { name: 'article', path: article.url },
  { name: 'search', path: '/search?q=leadership' },
  { name: 'watchlist', path: '/watchlist' },
];

/**
 * In the page: the time once every island whose box starts in the viewport has mounted or failed,
 * or, for an island that hydrates on the reader's first interaction (the header search), is armed
 * for it (`data-island-waiting="interaction"`: its server form works, clicks and typing are kept
 * and replayed when it hydrates); false until then.
 */
function islandsInViewReady(): number | false {
  const inView = [...document.querySelectorAll<HTMLElement>('[data-island]')].filter((element) => {
    const box = element.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0 && box.height > 0;
  });
  // (No named helper inside: the function is sent to the page as text, without tsx's `__name`.)
  return inView.every((element) => element.hasAttribute('data-island-state') || element.getAttribute('data-island-waiting') === 'interaction')
    ? performance.now()
    : false;
}

async function untilServerRendered(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!(response.headers.get('server-timing') ?? 'placeholder').includes('placeholder')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not server-rendered by every remote within 20 s`);
}

/** Scripts and bytes of the first view, unthrottled, empty cache. */
async function firstView(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const pending: Promise<void>[] = [];
  let scripts = 0;
  let scriptsGzip = 0;
  let transferred = 0;
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const sizes = await request.sizes().catch(() => undefined);
        transferred += sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0;
        if (request.resourceType() !== 'script') return;
        const body = (await (await request.response())?.body().catch(() => undefined)) ?? Buffer.alloc(0);
        scripts += 1;
        scriptsGzip += gzipSync(body, { level: 9 }).length;
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForFunction(islandsInViewReady, undefined, { polling: 50 });
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  return { scripts, scriptsGzip, transferred };
}

/** One throttled load: largest contentful paint and islands in view ready, ms from navigation. */
async function throttledRun(browser: Browser, url: string): Promise<{ lcp: number; islandsReady: number }> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLE.latency,
    downloadThroughput: THROTTLE.downloadThroughput,
    uploadThroughput: THROTTLE.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE.cpuRate });
  await page.addInitScript(() => {
    (window as unknown as { __lcp: number }).__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) (window as unknown as { __lcp: number }).__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  const ready = await page.waitForFunction(islandsInViewReady, undefined, { polling: 50, timeout: 60_000 });
  const islandsReady = (await ready.jsonValue()) as number;
  await page.waitForLoadState('load', { timeout: 60_000 });
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  await context.close();
  return { lcp, islandsReady };
}

async function measure(root: string): Promise<Map<string, Figures>> {
  const { startStack } = (await import(path.join(root, 'e2e/harness/stack.ts'))) as { startStack(options?: { env?: Record<string, string> }): Promise<StackLike> };
  const stack = await startStack({ env: { ISLAND_SERVER_TIMING: 'on' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = new Map<string, Figures>();
  try {
    for (const { name, path: pagePath } of PAGES) {
      const url = new URL(pagePath, stack.url).href;
      await untilServerRendered(url);
      const first = await firstView(browser, url);
      const figures: Figures = { ...first, lcp: [], islandsReady: [] };
      for (let run = 0; run < RUNS; run += 1) {
        const { lcp, islandsReady } = await throttledRun(browser, url);
        figures.lcp.push(lcp);
        figures.islandsReady.push(islandsReady);
      }
      results.set(name, figures);
    }
  } finally {
    await browser.close();
    await stack.close();
  }
  return results;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(2);

const variants: Array<[string, Map<string, Figures>]> = [];
if (BASELINE_ROOT) variants.push(['baseline', await measure(path.resolve(BASELINE_ROOT))]);
else console.log('(no BENCH_BASELINE_ROOT: this checkout only; set it to a built checkout of main for the A/B)');
variants.push(['this build', await measure(REPO_ROOT)]);

console.log(`\nPage weight: first view unthrottled (1280×720, empty cache); throttled phone profile (412×823, 1.6 Mbit/s, 150 ms RTT, CPU 4×), median of ${RUNS}`);
console.log(
  'page'.padEnd(10),
  'variant'.padEnd(11),
  'scripts'.padStart(8),
  'JS gz KB'.padStart(9),
  'wire KB'.padStart(8),
  'LCP s'.padStart(7),
  'islands s'.padStart(10),
  '  runs (islands s)',
);
for (const { name } of PAGES) {
  for (const [variant, results] of variants) {
    const figures = results.get(name)!;
    console.log(
      name.padEnd(10),
      variant.padEnd(11),
      String(figures.scripts).padStart(8),
      kb(figures.scriptsGzip).padStart(9),
      kb(figures.transferred).padStart(8),
      seconds(median(figures.lcp)).padStart(7),
      seconds(median(figures.islandsReady)).padStart(10),
      `  ${figures.islandsReady.map(seconds).join(' ')}`,
    );
  }
}
const mine = variants.at(-1)![1];
const articleFigures = mine.get('article')!;
const searchFigures = mine.get('search')!;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(`\nGoals (this build):`);
console.log(`  article initial scripts ${kb(articleFigures.scriptsGzip)} KB gzip (goal <= 110): ${verdict(articleFigures.scriptsGzip <= 110 * 1024)}`);
console.log(`  article transferred ${kb(articleFigures.transferred)} KB (goal <= 250): ${verdict(articleFigures.transferred <= 250 * 1024)}`);
console.log(`  article islands in view ready ${seconds(median(articleFigures.islandsReady))} s throttled (goal <= 2.5): ${verdict(median(articleFigures.islandsReady) <= 2500)}`);
console.log(`  search results visible (LCP, server-rendered) ${seconds(median(searchFigures.lcp))} s throttled (goal <= 1.5): ${verdict(median(searchFigures.lcp) <= 1500)}`);
