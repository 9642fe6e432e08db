/**
 * Benchmark of the mf-widgets remote on the article page with the most widgets, in Chromium:
 * - JavaScript bytes the remote sends for its islands (gzip -9 of each file fetched from its origin),
 * - time its mount takes (the island's `mf-widgets:mount` user-timing measure), unthrottled and
 *   with the CPU throttled 4x through CDP `Emulation.setCPUThrottlingRate`,
 * - cumulative layout shift on load, with the remote and without it (baseline: the browser is
 *   refused the remote's origin, so the page keeps its server-rendered markup unenhanced).
 *
 * The page is the real site, started as `npm start` starts it (the e2e harness's stack on free
 * ports): the shell renders the article with this remote's server build, and the shell's client
 * runtime loads the remote from its own origin. Nothing of the shell's source is imported. Build
 * first: `npm run build`.
 *
 * Run: `npm run bench -w mf-widgets` (options: RUNS=15).
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { listArticles } from '@khs/content';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/chromium.js';
import { startStack, type Stack } from '../../e2e/harness/stack.js';

const RUNS = Number(process.env.RUNS ?? 15);

/** The article with the most gallery pictures: the page where this remote has the most to do. */
function widgetHeavyArticlePath(): string {
  const [article] = [...listArticles()].sort((a, b) => (b.gallery?.length ?? 0) - (a.gallery?.length ?? 0));
  return `articles/${article!.id}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

interface RunResult {
  mountMs: number | null;
  /** A fixed JavaScript loop timed in the page: shows the CPU throttling that was in effect. */
  calibrationMs: number;
  cls: number;
  jsFiles: { url: string; bytes: number; gzip: number }[];
  enhanced: number;
}

/** Collects layout shifts from the first paint on (buffered observer installed before any script). */
const CLS_OBSERVER = `
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });`;

async function measure(page: Page, url: string, remoteOrigin: string, throttle: number, withRemote: boolean): Promise<RunResult> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const jsFiles: RunResult['jsFiles'] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const responseUrl = response.url();
    if (!responseUrl.endsWith('.js') || !responseUrl.startsWith(remoteOrigin)) return;
    pending.push(
      response.body().then((body) => {
        jsFiles.push({ url: new URL(responseUrl).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelector('[data-island="mf-widgets/PageWidgets"]')?.hasAttribute('data-island-state'));
  // Let lazy images, fonts and the widgets' first-frame reads settle before reading CLS.
  await page.waitForTimeout(1500);
  const result = await page.evaluate(() => ({
    calibrationMs: (() => {
      const start = performance.now();
      let sum = 0;
      for (let i = 0; i < 2_000_000; i += 1) sum += Math.sqrt(i);
      return sum > 0 ? performance.now() - start : 0;
    })(),
    mountMs: performance.getEntriesByName('mf-widgets:mount')[0]?.duration ?? null,
    cls: (window as unknown as { __cls: number }).__cls,
    enhanced: document.querySelectorAll('.is-enhanced').length,
  }));
  await Promise.all(pending);
  await cdp.detach();
  if (withRemote && result.mountMs === null) throw new Error('the PageWidgets island did not mount');
  return { ...result, jsFiles };
}

async function runSeries(stack: Stack, withRemote: boolean, throttle: number): Promise<RunResult[]> {
  const remoteOrigin = stack.remotes['mf-widgets'].replace(/\/$/, '');
  const pageUrl = new URL(widgetHeavyArticlePath(), stack.url).href;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: RunResult[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      if (!withRemote) await context.route((url) => url.origin === remoteOrigin, (route) => route.abort());
      const page = await context.newPage();
      await page.addInitScript(CLS_OBSERVER);
      results.push(await measure(page, pageUrl, remoteOrigin, throttle, withRemote));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return results;
}

const format = (ms: number) => `${ms.toFixed(2)} ms`;

async function main(): Promise<void> {
  const { loadavg, cpus } = await import('node:os');
  console.log(`mf-widgets benchmark: /${widgetHeavyArticlePath()} of the running site, Chromium ${CHROMIUM_PATH}, ${RUNS} loads per series`);
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')} at start\n`);
  const stack = await startStack();
  let unthrottled: RunResult[], throttled: RunResult[], baseline: RunResult[];
  try {
    unthrottled = await runSeries(stack, true, 1);
    throttled = await runSeries(stack, true, 4);
    baseline = await runSeries(stack, false, 1);
  } finally {
    await stack.close();
  }

  const files = unthrottled[0]!.jsFiles.sort((a, b) => a.url.localeCompare(b.url));
  const total = files.reduce((sum, file) => sum + file.gzip, 0);
  console.log('JavaScript the remote sends for its islands (gzip -9):');
  for (const file of files) console.log(`  ${file.url.padEnd(48)} ${String(file.bytes).padStart(7)} B  ${String(file.gzip).padStart(6)} B gzip`);
  console.log(`  total${' '.repeat(44)}${String(files.reduce((s, f) => s + f.bytes, 0)).padStart(7)} B  ${String(total).padStart(6)} B gzip`);
  console.log(`  (enhanced elements on the page: ${unthrottled[0]!.enhanced})\n`);

  for (const [label, series] of [
    ['unthrottled', unthrottled],
    ['CPU 4x throttled', throttled],
  ] as const) {
    const mounts = series.map((result) => result.mountMs!);
    const calibration = median(series.map((result) => result.calibrationMs));
    console.log(
      `mount (${label}): median ${format(median(mounts))}, p90 ${format(percentile(mounts, 0.9))}, min ${format(Math.min(...mounts))}, max ${format(Math.max(...mounts))}` +
        `  [calibration loop median ${format(calibration)}]`,
    );
  }
  const cls = (series: RunResult[]) => Math.max(...series.map((result) => result.cls));
  console.log(`\nCLS on load (max over runs): with mf-widgets ${cls(unthrottled).toFixed(4)} (throttled ${cls(throttled).toFixed(4)}), without the remote ${cls(baseline).toFixed(4)}`);
  console.log(`CLS caused by mf-widgets: ${Math.max(0, cls(unthrottled) - cls(baseline)).toFixed(4)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
