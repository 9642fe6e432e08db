// Page-weight benchmark (issue 14; prints figures, asserts nothing). For the article, search and
// watchlist pages, in Chromium:
//  - scripts loaded before interaction (no scrolling, no input): count and gzip -9 KB;
//  - bytes transferred (encoded bodies and headers, as on the wire) until the first view is ready,
//    in all and by kind (the HTML, scripts, style sheets, the rest);
//  - with a throttled phone profile (1.6 Mbit/s down, 150 ms RTT, CPU 4× slower; empty cache),
//    largest contentful paint and the time until every island in view is ready, median of 5;
//  - on the search page, same profile, median of 5: from the visitor's first keystroke to the results
//    of the new query painted, debounce included, for two sequences (typing as the first
//    interaction; tapping the box, then typing at once), and the INP (slowest interaction) while
//    typing a 10-letter query as a visitor types (keys 120 ms apart whatever the page does, not
//    waiting for each to be handled), with how many runs lost typed text;
// BENCH_PAGES=search measures only the search page (comma-separated names);
// for this checkout and, side by side, a baseline checkout (BENCH_BASELINE_ROOT: another built
// worktree, e.g. `git worktree add --detach /tmp/baseline <commit>` + `npm ci` + `npm run build`),
// each run as its own whole stack (`benchCheckouts.ts`), both up at once, taking turns run by run;
// with the load average at the start and the end.
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { listArticles, listSurveys } from '@khs/content';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/chromium.js';
import { typeLikeAVisitor } from '../e2e/harness/visitorTyping.js';
import { benchCheckouts, inTurn, loadAverage, startStackOf, type BenchCheckout, type BenchStack } from './benchCheckouts.js';

const RUNS = Number(process.env.BENCH_THROTTLED_RUNS ?? 5);
/** Pages to measure (comma-separated names: article, search, watchlist). Default all. */
const PAGE_FILTER = process.env.BENCH_PAGES?.split(',').map((name) => name.trim()).filter(Boolean);
/** Deadline of one throttled step: a loaded machine (8 developers on 2 cores) needs far more than the page does. */
const STEP_TIMEOUT_MS = 180_000;
/** The throttled profile of the issue. */
const THROTTLE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpuRate: 4 };
const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1280, height: 720 };

type WireKind = 'html' | 'js' | 'css' | 'other';
const WIRE_KINDS: Record<string, WireKind> = { document: 'html', script: 'js', stylesheet: 'css' };

interface Figures {
  scripts: number;
  scriptsGzip: number;
  transferred: number;
  /** Bytes of the browser's idle-priority prefetches (`Sec-Purpose: prefetch`), not part of the first view. */
  prefetched: number;
  /** `transferred` by kind: the page's HTML, scripts, style sheets, the rest (images, fonts, fetches). */
  wire: Record<WireKind, number>;
  lcp: number[];
  islandsReady: number[];
  /** Search page only: first keystroke to the new query's results painted, ms; the box focused by the key's own press (typing is the first interaction). */
  keystrokeToResults: number[];
  /** Search page only: the same, when the visitor taps the box and types at once (a phone: tap, then keys). */
  tapThenTypeToResults: number[];
  /** Search page only: INP while typing a 10-letter query, ms. */
  inp: number[];
  /** Search page only: runs whose typed query did not reach the results (what the box held then). */
  lostTyping: string[];
}

const surveyHandles = new Set(listSurveys().map((survey) => survey.formHandle));
const article = listArticles().find((candidate) => candidate.surveyHandle && surveyHandles.has(candidate.surveyHandle)) ?? listArticles()[0]!;
const PAGES = [
  { name: 'article', path: article.url },
  { name: 'search', path: '/search?q=team' },
  { name: 'watchlist', path: '/watchlist' },
].filter(({ name }) => !PAGE_FILTER || PAGE_FILTER.includes(name));

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
  let prefetched = 0;
  const wire: Record<WireKind, number> = { html: 0, js: 0, css: 0, other: 0 };
  page.on('requestfinished', (request) => {
    pending.push(
      (async () => {
        const sizes = await request.sizes().catch(() => undefined);
        const bytes = sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0;
        // The idle-priority prefetch of what an interaction will need is no part of the first view:
        // the browser's (`Sec-Purpose: prefetch`), or mf-search's of the full list (a fetch of a
        // script file, `prefetchSharedModules.ts`; scripts the page runs are requests of type script).
        const prefetch = (await request.allHeaders())['sec-purpose']?.includes('prefetch') || (request.resourceType() === 'fetch' && new URL(request.url()).pathname.endsWith('.js'));
        if (prefetch) prefetched += bytes;
        else {
          transferred += bytes;
          wire[WIRE_KINDS[request.resourceType()] ?? 'other'] += bytes;
        }
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
  return { scripts, scriptsGzip, transferred, prefetched, wire };
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
  await page.goto(url, { waitUntil: 'commit', timeout: STEP_TIMEOUT_MS });
  const ready = await page.waitForFunction(islandsInViewReady, undefined, { polling: 50, timeout: STEP_TIMEOUT_MS });
  const islandsReady = (await ready.jsonValue()) as number;
  await page.waitForLoadState('load', { timeout: STEP_TIMEOUT_MS });
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  await context.close();
  return { lcp, islandsReady };
}

/** A throttled phone page (the profile above), its CDP session applied. */
async function throttledPage(browser: Browser): Promise<{ page: Page; cdp: CDPSession; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: THROTTLE.latency,
    downloadThroughput: THROTTLE.downloadThroughput,
    uploadThroughput: THROTTLE.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE.cpuRate });
  return { page, cdp, close: () => context.close() };
}

const SEARCH_BOX = '.khs-search-list input[role="combobox"]';

/** Loads the search page throttled and waits until it settled (islands ready, network idle: what a visitor reading the results before typing has). */
async function settledSearchPage(browser: Browser, url: string) {
  const throttled = await throttledPage(browser);
  await throttled.page.addInitScript(() => {
    const w = window as unknown as { __inp: number; __firstKey?: number };
    w.__inp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[]) {
        if (entry.interactionId) w.__inp = Math.max(w.__inp, entry.duration);
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    document.addEventListener('keydown', (event) => void (w.__firstKey ??= event.timeStamp), true);
  });
  await throttled.page.goto(url, { waitUntil: 'commit', timeout: STEP_TIMEOUT_MS });
  await throttled.page.waitForFunction(islandsInViewReady, undefined, { polling: 50, timeout: STEP_TIMEOUT_MS });
  await throttled.page.waitForLoadState('networkidle', { timeout: STEP_TIMEOUT_MS });
  return throttled;
}

/** The new query's results are on screen: the list answered it and is idle; returns the frame's time. */
function resultsPainted(query: string): number | false {
  const list = document.querySelector('.khs-search-list');
  return list?.getAttribute('data-query') === query && list.getAttribute('data-status') === 'idle' ? performance.now() : false;
}

/** The visitor's sequences timed from the first keystroke to results painted. */
const KEYSTROKE_SEQUENCES = {
  'type-first': 'typing is the first interaction: End pressed in the box (focusing it), then "s"',
  'tap-then-type': 'the box tapped (touchstart, pointerdown, focus), then End and "s" at once',
} as const;

/**
 * First keystroke to results painted: the first interaction of the page is one more letter typed
 * at the end of the address's query (`team` → `teams`); timed in the page from the first keydown
 * (End) to the animation frame that shows the new query's answer.
 */
async function keystrokeToResults(browser: Browser, url: string, sequence: keyof typeof KEYSTROKE_SEQUENCES): Promise<number> {
  const { page, close } = await settledSearchPage(browser, url);
  try {
    const box = page.locator(SEARCH_BOX);
    const query = `${await box.inputValue()}s`;
    if (sequence === 'tap-then-type') await box.tap();
    await box.press('End');
    await page.keyboard.type('s');
    const painted = (await (await page.waitForFunction(resultsPainted, query, { polling: 'raf', timeout: STEP_TIMEOUT_MS })).jsonValue()) as number;
    const firstKey = await page.evaluate(() => (window as unknown as { __firstKey: number }).__firstKey);
    return painted - firstKey;
  } finally {
    await close();
  }
}

/** Longest wait for the typed query's results before the run counts as having lost typed text. */
const TYPED_RESULTS_TIMEOUT_MS = 60_000;

/**
 * INP while typing a 10-letter query (replacing the address's) as the page's first interaction,
 * as a visitor types: keys 120 ms apart, each pressed whatever the page is doing
 * (`typeLikeAVisitor`; Playwright's `keyboard.type` waits for each key to be handled, which spaces
 * the keys out behind a long task and lets fewer of them meet it). `lost`: what the box held when
 * the query's results never came (typed text lost), else undefined.
 */
async function inpWhileTyping(browser: Browser, url: string): Promise<{ inp: number; lost?: string }> {
  const { page, cdp, close } = await settledSearchPage(browser, url);
  try {
    await page.locator(SEARCH_BOX).focus();
    await page.keyboard.press('ControlOrMeta+a');
    await typeLikeAVisitor(cdp, 'leadership', 120);
    const answered = await page
      .waitForFunction(resultsPainted, 'leadership', { polling: 'raf', timeout: TYPED_RESULTS_TIMEOUT_MS })
      .then(() => true, () => false);
    await page.waitForTimeout(500);
    const inp = await page.evaluate(() => (window as unknown as { __inp: number }).__inp);
    return answered ? { inp } : { inp, lost: await page.locator(SEARCH_BOX).inputValue() };
  } finally {
    await close();
  }
}

/** One throttled run of `name`'s page, its figures added to `figures`. */
async function oneThrottledRun(browser: Browser, name: string, url: string, figures: Figures): Promise<void> {
  const { lcp, islandsReady } = await throttledRun(browser, url);
  figures.lcp.push(lcp);
  figures.islandsReady.push(islandsReady);
  if (name !== 'search') return;
  figures.keystrokeToResults.push(await keystrokeToResults(browser, url, 'type-first'));
  figures.tapThenTypeToResults.push(await keystrokeToResults(browser, url, 'tap-then-type'));
  const typing = await inpWhileTyping(browser, url);
  figures.inp.push(typing.inp);
  if (typing.lost !== undefined) figures.lostTyping.push(typing.lost);
}

/** Every checkout's stack at once; per page, the first views, then the throttled runs, the checkouts taking turns within each run. */
async function measure(checkouts: BenchCheckout[]): Promise<Array<Map<string, Figures>>> {
  const stacks: BenchStack[] = [];
  const results = checkouts.map(() => new Map<string, Figures>());
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const { root } of checkouts) stacks.push(await startStackOf(root, { ISLAND_SERVER_TIMING: 'on' }));
    for (const { name, path: pagePath } of PAGES) {
      const urls = stacks.map((stack) => new URL(pagePath, stack.url).href);
      for (const [index, url] of urls.entries()) {
        await untilServerRendered(url);
        const first = await firstView(browser, url);
        results[index]!.set(name, { ...first, lcp: [], islandsReady: [], keystrokeToResults: [], tapThenTypeToResults: [], inp: [], lostTyping: [] });
      }
      for (let run = 0; run < RUNS; run += 1) {
        for (const [index, url] of inTurn(urls, run)) await oneThrottledRun(browser, name, url, results[index]!.get(name)!);
      }
    }
  } finally {
    await browser.close();
    for (const stack of stacks) await stack.close();
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

const checkouts = benchCheckouts();
const loadBefore = loadAverage();
const measured = await measure(checkouts);
const variants = checkouts.map(({ name }, index): [string, Map<string, Figures>] => [name, measured[index]!]);

console.log(`\nPage weight: first view unthrottled (1280×720, empty cache); throttled phone profile (412×823, 1.6 Mbit/s, 150 ms RTT, CPU 4×), median of ${RUNS}, the checkouts taking turns`);
console.log(`load average (1 / 5 / 15 min): ${loadBefore} at the start, ${loadAverage()} at the end`);
console.log(
  'page'.padEnd(10),
  'variant'.padEnd(11),
  'scripts'.padStart(8),
  'JS gz KB'.padStart(9),
  'wire KB'.padStart(8),
  'prefetch KB'.padStart(12),
  'HTML KB'.padStart(8),
  'JS KB'.padStart(7),
  'CSS KB'.padStart(7),
  'other KB'.padStart(9),
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
      kb(figures.prefetched).padStart(12),
      kb(figures.wire.html).padStart(8),
      kb(figures.wire.js).padStart(7),
      kb(figures.wire.css).padStart(7),
      kb(figures.wire.other).padStart(9),
      seconds(median(figures.lcp)).padStart(7),
      seconds(median(figures.islandsReady)).padStart(10),
      `  ${figures.islandsReady.map(seconds).join(' ')}`,
    );
  }
}
if (variants.every(([, results]) => results.has('search'))) {
  console.log(`\nSearch page (/search?q=team), throttled phone profile, median of ${RUNS}; first keystroke -> new results painted, debounce (500 ms) included:`);
  console.log(`  type first:    ${KEYSTROKE_SEQUENCES['type-first']}`);
  console.log(`  tap then type: ${KEYSTROKE_SEQUENCES['tap-then-type']}`);
  console.log(`  INP:           typing "leadership" as a visitor (keys 120 ms apart, not waiting for the page); lost = runs whose typed query never reached the results`);
  console.log('variant'.padEnd(11), 'type first s'.padStart(13), 'tap then type s'.padStart(16), 'INP ms'.padStart(8), 'lost'.padStart(5), '  runs (type first s | tap then type s | INP ms)');
  for (const [variant, results] of variants) {
    const figures = results.get('search')!;
    console.log(
      variant.padEnd(11),
      seconds(median(figures.keystrokeToResults)).padStart(13),
      seconds(median(figures.tapThenTypeToResults)).padStart(16),
      median(figures.inp).toFixed(0).padStart(8),
      `${figures.lostTyping.length}/${figures.inp.length}`.padStart(5),
      `  ${figures.keystrokeToResults.map(seconds).join(' ')} | ${figures.tapThenTypeToResults.map(seconds).join(' ')} | ${figures.inp.map((value) => value.toFixed(0)).join(' ')}`,
    );
  }
}
const mine = variants.at(-1)![1];
const articleFigures = mine.get('article');
const searchFigures = mine.get('search');
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(`\nGoals (this build):`);
if (articleFigures) {
  console.log(`  article initial scripts ${kb(articleFigures.scriptsGzip)} KB gzip (goal <= 110): ${verdict(articleFigures.scriptsGzip <= 110 * 1024)}`);
  console.log(`  article transferred ${kb(articleFigures.transferred)} KB (goal <= 250): ${verdict(articleFigures.transferred <= 250 * 1024)}`);
  console.log(`  article islands in view ready ${seconds(median(articleFigures.islandsReady))} s throttled (goal <= 2.5): ${verdict(median(articleFigures.islandsReady) <= 2500)}`);
}
if (searchFigures) {
  console.log(`  search results visible (LCP, server-rendered) ${seconds(median(searchFigures.lcp))} s throttled (goal <= 1.5): ${verdict(median(searchFigures.lcp) <= 1500)}`);
  console.log(`  search initial scripts ${kb(searchFigures.scriptsGzip)} KB gzip in ${searchFigures.scripts} files (goal <= 110): ${verdict(searchFigures.scriptsGzip <= 110 * 1024)}`);
  console.log(`  search transferred ${kb(searchFigures.transferred)} KB first view (goal <= 150; idle prefetch ${kb(searchFigures.prefetched)} KB apart): ${verdict(searchFigures.transferred <= 150 * 1024)}`);
  console.log(`  search first keystroke -> results painted, typing first ${seconds(median(searchFigures.keystrokeToResults))} s throttled (goal <= 1.5): ${verdict(median(searchFigures.keystrokeToResults) <= 1500)}`);
  console.log(`  search first keystroke -> results painted, tap then type ${seconds(median(searchFigures.tapThenTypeToResults))} s throttled (goal <= 1.5): ${verdict(median(searchFigures.tapThenTypeToResults) <= 1500)}`);
  console.log(`  search INP typing 10 letters ${median(searchFigures.inp).toFixed(0)} ms throttled (goal <= 200): ${verdict(median(searchFigures.inp) <= 200)}`);
  console.log(`  search typed text kept in ${searchFigures.inp.length - searchFigures.lostTyping.length} of ${searchFigures.inp.length} runs: ${verdict(searchFigures.lostTyping.length === 0)}${searchFigures.lostTyping.length ? ` (the box held ${searchFigures.lostTyping.map((value) => JSON.stringify(value)).join(', ')})` : ''}`);
}
if (articleFigures) console.log(`  article initial scripts ${kb(articleFigures.scriptsGzip)} KB gzip (goal: stays <= 82): ${verdict(articleFigures.scriptsGzip <= 82 * 1024)}`);
