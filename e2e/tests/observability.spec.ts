// Issue 38: every part serves Prometheus metrics behind the operators' token, and one page request
// with a traceparent from a trusted proxy becomes one trace across the shell, its island renders,
// a team service and the search server, exported to an OTLP receiver this test runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listArticles } from '@khs/content';
import { startOtlpReceiver, type OtlpReceiver } from '@khs/observability/otlp-receiver';
import { startTeamService } from '@khs/stack';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const OPERATOR_TOKEN = 'observability-operator-token-0123456789';
const bearer = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** The sum of the samples of `name` whose labels include `labels` in a Prometheus text answer. */
function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) sum += Number(match[3]);
  }
  return sum;
}

async function scrape(url: string, headers: Record<string, string> = bearer): Promise<string> {
  const response = await fetch(new URL('/metrics', url), { headers });
  expect(response.status, `${url}/metrics`).toBe(200);
  return response.text();
}

let stack: Stack;
let receiver: OtlpReceiver;

test.beforeAll(async () => {
  test.setTimeout(STACK_START_TIMEOUT_MS);
  receiver = await startOtlpReceiver();
  stack = await startStack({
    env: {
      OPERATOR_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      // This test is the trusted proxy in front of the shell (loopback).
      TRUST_PROXY: 'loopback',
    },
  });
});

test.afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

// Under load a page, a service start or an export takes long: each test gets time beside the stack's.
test.describe.configure({ timeout: 180_000 });

test.describe('metrics', () => {
  test('every part answers 401 without the token (the search server without its admin key), a part with no token configured 404', async () => {
    const parts = [stack.url, stack.serviceUrl('watchlist'), stack.serviceUrl('survey'), stack.remotes['mf-watchlist'], stack.searchUrl];
    for (const url of parts) {
      expect((await fetch(new URL('/metrics', url))).status, url).toBe(401);
      expect((await fetch(new URL('/metrics', url), { headers: { authorization: 'Bearer wrong' } })).status, url).toBe(401);
    }
    expect(sampleSum(await scrape(stack.searchUrl, { authorization: `Bearer ${ADMIN_API_KEY}` }), 'khs_search_workers')).toBeGreaterThan(0);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'khs-metrics-off-'));
    const survey = await startTeamService('survey', { env: { OPERATOR_TOKEN: '', DATA_DIR: dataDir } });
    try {
      expect((await fetch(new URL('/metrics', survey.url), { headers: bearer })).status).toBe(404);
    } finally {
      await survey.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a page view moves the shell's and the remote's metrics; an island failing on hydrate moves its build version's failure metric", async ({ page }) => {
    const article = listArticles()[0]!;
    const watchlistOrigin = stack.remotes['mf-watchlist'];
    const buildVersion = ((await (await fetch(new URL('/mf-manifest.json', watchlistOrigin))).json()) as { metaData: { buildVersion: string } }).metaData.buildVersion;
    const failures = { remote: 'mf-watchlist', version: buildVersion, code: 'KHS-ISLAND-007' };
    const before = { shell: await scrape(stack.url), origin: await scrape(watchlistOrigin) };

    // The article's own watchlist button gets props its mount rejects (as foundation.spec.ts does).
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof HTMLElement && node.matches('.article__watchlist[data-island]')) node.setAttribute('data-props', '{"id":42}');
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(new URL(`/articles/${article.id}`, stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('.article__watchlist')).toHaveAttribute('data-island-state', 'failed');
    await page.goto('about:blank');

    const after = { shell: await scrape(stack.url), origin: await scrape(watchlistOrigin) };
    const pageRequests = (text: string) => sampleSum(text, 'http_requests_total', { route: '/articles/:id', status_code: '200' });
    expect(pageRequests(after.shell)).toBeGreaterThan(pageRequests(before.shell));
    const renders = (text: string) => sampleSum(text, 'khs_island_render_duration_seconds_count', { remote: 'mf-watchlist', version: buildVersion });
    expect(renders(after.shell)).toBeGreaterThan(renders(before.shell));
    // The browser loaded the remote from its origin: the origin counted it.
    const originRequests = (text: string) => sampleSum(text, 'http_requests_total', { part: 'origin:mf-watchlist' });
    expect(originRequests(after.origin)).toBeGreaterThan(originRequests(before.origin));
    // The page report (a beacon) counts the failure under the build the browser ran.
    await expect.poll(async () => sampleSum(await scrape(stack.url), 'khs_island_browser_failures_total', failures), { timeout: 60_000 }).toBeGreaterThan(sampleSum(before.shell, 'khs_island_browser_failures_total', failures));
    expect(sampleSum(await scrape(stack.url), 'khs_island_page_views_total', { remote: 'mf-watchlist', version: buildVersion })).toBeGreaterThan(0);
  });
});

test('one page request with a traceparent from the trusted proxy is one trace: the shell, each island render, a team service and the search server', async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const proxySpan = 'b7ad6b7169203331';
  const traceparent = `00-${traceId}-${proxySpan}-01`;
  // No page of the site calls both a team service and the search server in its server render, so
  // the proxy sends two requests in the one trace. The search page: the shell renders its islands,
  // the search list's render searches on the search server. The contact page: the shell composes it
  // from the contact service's fragment. The article page calls neither (traced: its spans are the
  // shell's page and its 7–8 island renders): the survey renders from the props the shell gives it
  // and loads its results in the browser, the widgets' markup comes from the article's own fields,
  // the header search's render searches nothing; the home and watchlist pages likewise. The shared
  // watchlist and search report pages call their service and search nothing on the server.
  const search = await fetch(new URL('/search?q=work', stack.url), { headers: { traceparent } });
  expect(search.status).toBe(200);
  const islands = [...new Set([...(await search.text()).matchAll(/data-island="([^"]+)"/g)].map(([, name]) => name!))].sort();
  expect(islands).toContain('mf-search/SearchList');
  expect((await fetch(new URL('/contact', stack.url), { headers: { traceparent } })).status).toBe(200);

  const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
  await receiver.waitFor(
    () => {
      const spans = inTrace();
      // Every part's spans: each process exports its own batch when its span ends (the shell's
      // page spans end after their answers went out), so all of them, not only the first ones.
      return (
        ['search', 'contact'].every((service) => spans.some((span) => span.service === service)) &&
        ['GET /search', 'GET /contact'].every((name) => spans.some((span) => span.service === 'shell' && span.name === name)) &&
        spans.filter((span) => span.name === 'island render').length >= islands.length
      );
    },
    120_000,
  );
  const spans = inTrace();
  const shellPage = spans.find((span) => span.service === 'shell' && span.name === 'GET /search')!;
  expect(shellPage.parentSpanId).toBe(proxySpan);
  const renders = spans.filter((span) => span.name === 'island render');
  expect(new Set(renders.map((span) => span.attributes['khs.island'])).size).toBeGreaterThanOrEqual(islands.length);
  for (const island of islands) expect(renders.some((span) => span.attributes['khs.island'] === island), island).toBe(true);
  // The search server's span is a child of the search list's render.
  const searchList = renders.filter((span) => span.attributes['khs.island'] === 'mf-search/SearchList').map((span) => span.spanId);
  expect(spans.some((span) => span.service === 'search' && searchList.includes(span.parentSpanId!))).toBe(true);
  // The contact service's span is a child of the shell's contact page span.
  const shellContact = spans.find((span) => span.service === 'shell' && span.name === 'GET /contact')!;
  expect(spans.some((span) => span.service === 'contact' && span.parentSpanId === shellContact.spanId)).toBe(true);
});
