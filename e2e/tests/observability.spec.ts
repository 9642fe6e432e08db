// Issue 38: every part serves Prometheus metrics behind the operators' token, and one page request
// with a traceparent from a trusted proxy becomes one trace across the shell, its island renders,
// a team service and the search server, exported to an OTLP receiver this test runs. The page: the
// editors' search report with a re-ranking switch (SEARCH_POPULARITY=on). The shell renders its
// islands and composes it from the search team's service's fragment; the service applies the switch
// and, before it answers, learns (searches the search server for each picked query's results and
// writes the learned curation set there), all within the request's trace.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_SEARCH_INDEX_NAME, DEFAULT_SEARCH_SETTINGS, POPULARITY_SORT_BY, SERVICE_PAGE_PATHS } from 'contracts';
import { listArticles } from '@khs/content';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan as Span } from '@khs/observability/otlp-receiver';
import { startTeamService } from '@khs/stack';
import { rerankSwitchSignature } from 'mf-search/rerank-switch';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, SEARCH_API_KEY, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

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

/** The editors' search report (a page the shell composes from the search team's service). */
const REPORT_PATH = SERVICE_PAGE_PATHS.searchReport;
/** The search team's service's part (its `service.name` in the spans). */
const SEARCH_TEAM_SERVICE = 'search-team';
/** The query the visitors pick a result of (normalised, as the service stores queries). */
const RERANKED_QUERY = 'work';
/** The service's default `SEARCH_POPULARITY_MIN_VISITORS`: distinct visitors a result needs before it moves. */
const VISITORS = 3;

const editorToken = (secretsFile: string) => (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>).EDITOR_TOKEN!;

/** A page's text without its markup (the report's sentences span elements). */
function pageText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ');
}

/** The query's first 20 result ids as the service's learn ranks them (no curations), from the search server with the search-only key. */
async function organicResults(stack: Stack, query: string): Promise<string[]> {
  const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q: query, query_by: DEFAULT_SEARCH_SETTINGS.queryBy, sort_by: POPULARITY_SORT_BY, per_page: 20, include_fields: 'id', enable_curations: false }] }),
  });
  expect(response.status).toBe(200);
  const { results } = (await response.json()) as { results: { hits?: { document: { id: string } }[] }[] };
  return (results[0]?.hits ?? []).map((hit) => hit.document.id);
}

/** Distinct visitors who searched `query` and opened `articleId`, as their browsers report it through the shell (as search-rerank.spec.ts's). */
async function sentPicks(stack: Stack, query: string, articleId: string, visitors: number): Promise<void> {
  for (let visitor = 0; visitor < visitors; visitor++) {
    const queryID = `s-trace-${visitor}`;
    const searched = await fetch(new URL('/api/insights/searches', stack.url), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query, hitCount: 20, filters: {}, page: '/search', queryID }) });
    expect(searched.status).toBe(204);
    const clicked = await fetch(new URL('/api/insights/events', stack.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ eventType: 'click', eventName: 'Article Opened', index: DEFAULT_SEARCH_INDEX_NAME, userToken: `anonymous-trace-${visitor}`, objectIDs: [articleId], positions: [5], queryID }] }),
    });
    expect(clicked.status).toBe(200);
  }
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
      // The trace's page: the search report's re-ranking switch learns (with popularity on). The
      // timer's next learn is a day away (the most it takes): the learns are the start's and the switch's.
      SEARCH_POPULARITY: 'on',
      SEARCH_POPULARITY_REFRESH_SECONDS: '86400',
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

test("one page request with a traceparent from the trusted proxy is one trace: the shell, each island render, the search team's service and the search server", async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const proxySpan = 'b7ad6b7169203331';
  const traceparent = `00-${traceId}-${proxySpan}-01`;
  const editor = { authorization: `Basic ${Buffer.from(`editor:${editorToken(stack.secretsFile)}`).toString('base64')}` };
  // The start's learn (no picks yet) is done: the report shows its outcome. The only learns of this
  // stack are that one and the switch's (SEARCH_POPULARITY_REFRESH_SECONDS above), so the switch
  // starts its own learn, in its own request, rather than joining one the timer queued.
  await expect.poll(async () => pageText(await (await fetch(new URL(REPORT_PATH, stack.url), { headers: editor })).text()), { timeout: 60_000 }).toContain('No query is re-ranked now.');

  // Three visitors pick the query's 5th result by text match: the learn searches the query's results and lifts it.
  const organic = await organicResults(stack, RERANKED_QUERY);
  expect(organic.length, `results of “${RERANKED_QUERY}”`).toBeGreaterThanOrEqual(5);
  await sentPicks(stack, RERANKED_QUERY, organic[4]!, VISITORS);

  // The one request: the editor switches the query's re-ranking on (it is on: the switch sets a
  // state), the service learns before it answers (the organic search, the curation set's write).
  const query = new URLSearchParams({ rerank: 'on', query: RERANKED_QUERY, sig: rerankSwitchSignature(editorToken(stack.secretsFile), 'on', RERANKED_QUERY) });
  const response = await fetch(new URL(`${REPORT_PATH}?${query}`, stack.url), { headers: { ...editor, traceparent } });
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(pageText(html)).toContain(`Re-ranking for “${RERANKED_QUERY}” is on again`);
  expect(html).toContain(`data-query="${RERANKED_QUERY}"`);
  const islands = [...new Set([...html.matchAll(/data-island="([^"]+)"/g)].map(([, name]) => name!))].sort();
  expect(islands.length).toBeGreaterThan(0);

  const inTrace = () => receiver.spans.filter((span) => span.traceId === traceId);
  const isOrganicSearch = (span: Span) => span.service === 'search' && span.name === 'GET /collections/:param/documents/search';
  const isCurationWrite = (span: Span) => span.service === 'search' && span.name === 'PUT /curation_sets/:param';
  await receiver.waitFor(
    () => {
      const spans = inTrace();
      // Every part's spans: each process exports its own batch when its span ends (the shell's
      // page span ends after its answer went out), so all of them, not only the first ones.
      return (
        spans.some((span) => span.service === 'shell' && span.parentSpanId === proxySpan) &&
        spans.some((span) => span.service === SEARCH_TEAM_SERVICE) &&
        spans.some(isOrganicSearch) &&
        spans.some(isCurationWrite) &&
        islands.every((island) => spans.some((span) => span.name === 'island render' && span.attributes['khs.island'] === island))
      );
    },
    120_000,
  );
  const spans = inTrace();
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const descendsFrom = (span: Span, ancestor: Span) => {
    for (let parent = span.parentSpanId; parent; parent = byId.get(parent)?.parentSpanId) if (parent === ancestor.spanId) return true;
    return false;
  };
  // The shell's page span, the child of the proxy's: one request, one page span.
  const shellPages = spans.filter((span) => span.service === 'shell' && span.parentSpanId === proxySpan);
  expect(shellPages.map((span) => span.name)).toEqual([`GET ${REPORT_PATH}`]);
  const shellPage = shellPages[0]!;
  // Each island of the answered page was rendered within it.
  const renders = spans.filter((span) => span.name === 'island render');
  for (const island of islands) expect(renders.some((span) => span.attributes['khs.island'] === island && descendsFrom(span, shellPage)), island).toBe(true);
  // The search team's service answered the shell's page call.
  const service = spans.filter((span) => span.service === SEARCH_TEAM_SERVICE);
  expect(service.map((span) => [span.name, span.parentSpanId])).toEqual([[`GET ${REPORT_PATH}`, shellPage.spanId]]);
  // The learn it awaited searched the search server and wrote the learned curation set, in its trace.
  expect(spans.filter(isOrganicSearch).every((span) => descendsFrom(span, service[0]!))).toBe(true);
  expect(spans.filter(isCurationWrite).every((span) => descendsFrom(span, service[0]!))).toBe(true);
});
