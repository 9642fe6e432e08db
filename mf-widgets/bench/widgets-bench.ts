/**
 * Benchmark of the mf-widgets remote on a long article page with every widget, in Chromium:
 * - JavaScript bytes the remote sends for the PageWidgets island (gzip -9 of each file fetched),
 * - time its mount takes (the island's `mf-widgets:mount` user-timing measure), unthrottled and
 *   with the CPU throttled 4x through CDP `Emulation.setCPUThrottlingRate`,
 * - cumulative layout shift on load, with the remote and without it (baseline).
 *
 * The page is the shell's real Layout + ArticlePage (server components rendered here with
 * react-dom/server) for a long article, loaded by the shell's real client runtime, with the
 * remote served from its own origin as in production. Build first: `npm run build -w mf-widgets`
 * and `npm run build -w shell`.
 *
 * Run: `npm run bench -w mf-widgets` (options: RUNS=15). tsx compiles the shell's TSX with the
 * shell's tsconfig (automatic JSX runtime), hence `--tsconfig ../shell/tsconfig.json` in the script.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { getArticle, listArticles, contentImagesDir, type Article } from '@khs/content';
import { examplePageConfig, type PageConfig } from 'contracts';
import { createElement } from 'react';
import { ArticlePage } from '../../shell/src/server/pages/ArticlePage.js';
import { Layout } from '../../shell/src/server/pages/Layout.js';
import { renderPage } from '../../shell/src/server/pages/renderPage.js';
import { articleWidgetsProps } from '../../shell/src/server/pages/articleWidgetsProps.js';
import { renderToStaticMarkup } from 'react-dom/server';
import { ArticleContentsTrigger, ArticleWidgets, type ArticleWidgetsProps } from '../src/markup/ArticleWidgets.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/harness/chromium.js';

const RUNS = Number(process.env.RUNS ?? 15);
const HERE = import.meta.dirname;
const REPO = path.resolve(HERE, '../..');
const DIST = path.join(REPO, 'mf-widgets/dist');

/** A long article: the first gallery article's text ten times over and every gallery picture. */
function longArticle(): Article {
  const base = listArticles().find((article) => (article.gallery?.length ?? 0) > 0) ?? getArticle(listArticles()[0]!.id)!;
  const pictures = listArticles().flatMap((article) => article.gallery ?? []);
  const unique = [...new Map(pictures.map((picture) => [picture.src, picture])).values()];
  return {
    ...base,
    content: Array.from({ length: 10 }, () => base.content).join('\n\n'),
    readingTime: base.readingTime * 10,
    gallery: unique,
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.html': 'text/html; charset=utf-8',
};

/** One origin for the page, shell assets and content images; another for the remote (as deployed). */
async function startServers(withRemote: boolean): Promise<{ pageUrl: string; close(): Promise<void> }> {
  const listen = (server: Server) =>
    new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  const serveFile = async (file: string, response: import('node:http').ServerResponse, cors = false) => {
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', ...(cors ? { 'access-control-allow-origin': '*' } : {}) });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  };
  const remote = createServer((request, response) => void serveFile(path.join(DIST, path.normalize(new URL(request.url!, 'http://x').pathname)), response, true));
  const remoteOrigin = await listen(remote);
  const config: PageConfig = examplePageConfig({
    remotes: withRemote ? [{ name: 'mf-widgets', entry: `${remoteOrigin}/mf-manifest.json` }] : [],
  });
  const article = longArticle();
  const html = renderPage(
    createElement(Layout, {
      title: article.title,
      config,
      runtimeUrl: '/assets/shell-runtime.js',
      pageClass: 'page-article',
      children: createElement(ArticlePage, { article, survey: undefined }),
    }),
  )
    .replace('</head>', '<link rel="stylesheet" href="/static/widgets.css"></head>')
    // The widget islands as the shell's server gets them from this remote's server build.
    .replace(
      /(<div class="island article__widgets"[^>]*>)(<\/div>)/,
      (_match, open: string, close: string) =>
        `${open}${renderToStaticMarkup(createElement(ArticleWidgets, articleWidgetsProps(article) as unknown as ArticleWidgetsProps))}${close}`,
    )
    .replace(/(<div class="island article__contents"[^>]*>)(<\/div>)/, (_match, open: string, close: string) => `${open}${renderToStaticMarkup(createElement(ArticleContentsTrigger))}${close}`);
  const site = createServer((request, response) => {
    const pathname = path.normalize(new URL(request.url!, 'http://x').pathname);
    if (pathname === '/article') {
      response.writeHead(200, { 'content-type': TYPES['.html']! }).end(html);
    } else if (pathname.startsWith('/assets/')) void serveFile(path.join(REPO, 'shell/dist/client', pathname.slice('/assets/'.length)), response);
    else if (pathname === '/static/widgets.css') void serveFile(path.join(REPO, 'mf-widgets/src/styles/widgets.css'), response);
    else if (pathname.startsWith('/static/')) void serveFile(path.join(REPO, 'shell/public', pathname.slice('/static/'.length)), response);
    else if (pathname.startsWith('/content-images/')) void serveFile(path.join(contentImagesDir, pathname.slice('/content-images/'.length)), response);
    else response.writeHead(404).end();
  });
  const siteOrigin = await listen(site);
  return {
    pageUrl: `${siteOrigin}/article`,
    close: async () => {
      await new Promise((resolve) => site.close(resolve));
      await new Promise((resolve) => remote.close(resolve));
    },
  };
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

async function measure(page: Page, url: string, throttle: number, withRemote: boolean): Promise<RunResult> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const jsFiles: RunResult['jsFiles'] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const responseUrl = response.url();
    if (!responseUrl.endsWith('.js') || responseUrl.includes('/assets/')) return;
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

async function runSeries(withRemote: boolean, throttle: number): Promise<RunResult[]> {
  const servers = await startServers(withRemote);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: RunResult[] = [];
  try {
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(CLS_OBSERVER);
      results.push(await measure(page, servers.pageUrl, throttle, withRemote));
      await context.close();
    }
  } finally {
    await browser.close();
    await servers.close();
  }
  return results;
}

const format = (ms: number) => `${ms.toFixed(2)} ms`;

async function main(): Promise<void> {
  const { loadavg, cpus } = await import('node:os');
  console.log(`mf-widgets benchmark: long article page with every widget, Chromium ${CHROMIUM_PATH}, ${RUNS} loads per series`);
  console.log(`machine: ${cpus().length} CPUs, load average ${loadavg().map((value) => value.toFixed(2)).join(' ')} at start\n`);
  const unthrottled = await runSeries(true, 1);
  const throttled = await runSeries(true, 4);
  const baseline = await runSeries(false, 1);

  const files = unthrottled[0]!.jsFiles.sort((a, b) => a.url.localeCompare(b.url));
  const total = files.reduce((sum, file) => sum + file.gzip, 0);
  console.log('JavaScript the remote sends for PageWidgets (gzip -9):');
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
