// Foundation benchmark (prints figures, asserts nothing):
//  1. JavaScript bytes (gzip) a browser downloads for an article page, per origin and in total;
//  2. requests/second and latency of the server-rendered article page under concurrent load,
//     side by side with the same bytes served as a static file by the same shell process.
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { listArticles } from '@khs/content';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/chromium.js';
import { REPO_ROOT, startStack } from '../e2e/harness/stack.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const stack = await startStack();
const article = listArticles()[0]!;
const articleUrl = new URL(article.url, stack.url).href;
const staticName = `bench-article-${process.pid}.html`;
const staticFile = path.join(REPO_ROOT, 'shell/public', staticName);

try {
  // 1. JavaScript bytes.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const scripts: Array<{ url: string; raw: number; gzip: number }> = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: response.url(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  });
  await page.goto(articleUrl, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((el) => el.hasAttribute('data-island-state')));
  const states = await page.evaluate(() => [...document.querySelectorAll('[data-island]')].map((el) => `${el.getAttribute('data-island')}=${el.getAttribute('data-island-state')}`));
  await browser.close();

  const origins = new Map<string, { files: number; raw: number; gzip: number }>();
  const originName = (url: string) => {
    const origin = new URL(url).origin;
    const remote = Object.entries(stack.remotes).find(([, value]) => value === origin)?.[0];
    return remote ?? (origin === new URL(stack.url).origin ? 'shell' : origin);
  };
  for (const script of scripts) {
    const key = originName(script.url);
    const entry = origins.get(key) ?? { files: 0, raw: 0, gzip: 0 };
    entry.files += 1;
    entry.raw += script.raw;
    entry.gzip += script.gzip;
    origins.set(key, entry);
  }
  console.log(`\nJavaScript downloaded for ${article.url} (bodies recompressed with gzip -9)`);
  console.log('origin'.padEnd(16), 'files'.padStart(6), 'raw B'.padStart(10), 'gzip B'.padStart(10));
  let total = { files: 0, raw: 0, gzip: 0 };
  for (const [name, entry] of [...origins].sort()) {
    console.log(name.padEnd(16), String(entry.files).padStart(6), String(entry.raw).padStart(10), String(entry.gzip).padStart(10));
    total = { files: total.files + entry.files, raw: total.raw + entry.raw, gzip: total.gzip + entry.gzip };
  }
  console.log('total'.padEnd(16), String(total.files).padStart(6), String(total.raw).padStart(10), String(total.gzip).padStart(10));
  console.log(`islands: ${states.join(', ')}`);

  // 2. Server-rendered page vs the same bytes as a static file, same process.
  const html = await (await fetch(articleUrl)).text();
  writeFileSync(staticFile, html);
  const load = (url: string) =>
    autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 }) as Promise<autocannon.Result>;
  await load(articleUrl); // warm-up pass is discarded
  const rendered = await load(articleUrl);
  const staticResult = await load(new URL(`/static/${staticName}`, stack.url).href);
  console.log(`\nArticle page under load: ${CONNECTIONS} connections, ${DURATION_S} s each, ${html.length} B per response`);
  console.log('variant'.padEnd(22), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'errors'.padStart(7));
  for (const [name, result] of [['server-rendered', rendered], ['static file', staticResult]] as const) {
    console.log(
      name.padEnd(22),
      result.requests.average.toFixed(0).padStart(9),
      String(result.latency.p50).padStart(8),
      String(result.latency.p99).padStart(8),
      String(result.errors + result.non2xx).padStart(7),
    );
  }
  console.log(`ratio static/rendered req/s: ${(staticResult.requests.average / rendered.requests.average).toFixed(2)}`);
} finally {
  rmSync(staticFile, { force: true });
  await stack.close();
}
