// Issue 36 item 7: re-ranking that learns, within bounds. With popularity on, what distinct
// visitors pick after searching a query lifts that result into the query's top 3 (a curation set of
// the search team's service); nothing from beyond the first 20 by text match moves in; an editor
// sees the re-ranked query in the search report and switches it off, and the text order is back.
import { readFileSync } from 'node:fs';
import { DEFAULT_SEARCH_INDEX_NAME, POPULARITY_SORT_BY } from 'contracts';
import type { Browser } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { SEARCH_API_KEY, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const FIELDS = 'headline,title,intro,content';
/** Candidate queries; the test uses the first with a result after its 20th that matches less well than the 20th (the lifted result is its 8th). */
const CANDIDATES = ['team', 'work', 'people', 'the', 'and'];
const REPORT_PATH = '/editors/search-report';
/** The service's default `SEARCH_POPULARITY_MIN_VISITORS`. */
const VISITORS = 3;

/** The article ids of the server-rendered search page (its first 20), in order, as a visitor without JavaScript sees them. */
async function pageOrder(browser: Browser, stack: Stack, query: string): Promise<string[]> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(new URL(`/search?q=${encodeURIComponent(query)}`, stack.url).href);
    return await page.locator('.khs-search-list .khs-search-teaser').evaluateAll((teasers) => teasers.map((teaser) => teaser.getAttribute('data-object-id') ?? ''));
  } finally {
    await context.close();
  }
}

/** The query's results as the site ranks them, without any curation, with their exact text-match scores (the search server, search-only key). */
async function textOrder(stack: Stack, query: string): Promise<{ ids: string[]; scores: bigint[]; found: number }> {
  const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q: query, query_by: FIELDS, sort_by: POPULARITY_SORT_BY, per_page: 60, include_fields: 'id', enable_curations: false }] }),
  });
  // `text_match` as a JSON number loses digits: the exact score is the string in `text_match_info`.
  const { results } = (await response.json()) as { results: { found: number; hits?: { document: { id: string }; text_match_info: { score: string } }[] }[] };
  const hits = results[0]?.hits ?? [];
  return { ids: hits.map((hit) => hit.document.id), scores: hits.map((hit) => BigInt(hit.text_match_info.score)), found: results[0]?.found ?? 0 };
}

/** The first result after the first 20 whose text match is below the 20th's (popularity reorders equal matches only, so it can never reach a first page by it). */
function weakerThanTwentieth(order: { ids: string[]; scores: bigint[] }): string | undefined {
  const index = order.scores.findIndex((score, i) => i >= 20 && score < order.scores[19]!);
  return index < 0 ? undefined : order.ids[index];
}

/** One visitor with consent searches `query` and opens the result at `position` (1-based) from the server-rendered list. */
async function visitorPicks(browser: Browser, stack: Stack, query: string, position: number): Promise<string> {
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: true })));
    const page = await context.newPage();
    const tracked = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/searches');
    await page.goto(new URL(`/search?q=${encodeURIComponent(query)}`, stack.url).href);
    expect((await tracked).status()).toBe(204);
    const teaser = page.locator('.khs-search-list .khs-search-teaser').nth(position - 1);
    const id = (await teaser.getAttribute('data-object-id'))!;
    // A keepalive request that outlives the page it left: its answer is not observed, the learn shows it arrived.
    const clicked = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/insights/events' && request.postData()!.includes('"click"'));
    await teaser.locator('a').first().click();
    expect(((await clicked).postDataJSON() as { events: { objectIDs: string[]; queryID?: string }[] }).events[0]).toMatchObject({ objectIDs: [id], queryID: expect.stringMatching(/^s-/) });
    await expect(page.locator('main article h1')).toBeVisible();
    return id;
  } finally {
    await context.close();
  }
}

/** Visitors who searched `query` and opened `articleId` (a page-2 click, as their browsers send it, through the shell). */
async function sentPicks(stack: Stack, query: string, articleId: string, visitors: number, prefix: string): Promise<void> {
  for (let visitor = 0; visitor < visitors; visitor++) {
    const queryID = `s-${prefix}-${visitor}`;
    const searched = await fetch(new URL('/api/insights/searches', stack.url), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query, hitCount: 30, filters: {}, page: '/search', queryID }) });
    expect(searched.status).toBe(204);
    const clicked = await fetch(new URL('/api/insights/events', stack.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events: [{ eventType: 'click', eventName: 'Article Opened', index: DEFAULT_SEARCH_INDEX_NAME, userToken: `anonymous-${prefix}-${visitor}`, objectIDs: [articleId], positions: [22], queryID }] }),
    });
    expect(clicked.status).toBe(200);
  }
}

const editorToken = (secretsFile: string) => (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>).EDITOR_TOKEN!;

test.describe('re-ranking that learns, within bounds (SEARCH_POPULARITY=on)', () => {
  test("distinct visitors' picks lift a lower result into the top 3, nothing from beyond 20 moves in; switched off in the report, the text order is back", async ({ browser }) => {
    test.setTimeout(test.info().timeout + STACK_START_TIMEOUT_MS + 120_000);
    const stack = await startStack({ env: { SEARCH_POPULARITY: 'on', SEARCH_POPULARITY_REFRESH_SECONDS: '1' } });
    try {
      let query = '';
      let beyond: string | undefined;
      for (const candidate of CANDIDATES) {
        beyond = weakerThanTwentieth(await textOrder(stack, candidate));
        if (beyond) {
          query = candidate;
          break;
        }
      }
      expect(query, `a query among ${CANDIDATES.join(', ')} with a weaker match than its 20th`).not.toBe('');
      // A first render on a busy machine may miss the island budget (the shell's placeholder): wait for a whole one.
      await expect.poll(async () => (await pageOrder(browser, stack, query)).length, { timeout: 60_000 }).toBe(20);
      const before = await pageOrder(browser, stack, query);
      const { ids: beforeText } = await textOrder(stack, query);
      expect(before).toEqual(beforeText.slice(0, 20));

      // Three visitors with consent search the query and open its 8th result.
      const lifted = before[7]!;
      for (let visitor = 0; visitor < VISITORS; visitor++) expect(await visitorPicks(browser, stack, query, 8)).toBe(lifted);
      // More visitors open a result beyond its first 20 (on page 2) that matches less well than the 20th: it never moves in.
      await sentPicks(stack, query, beyond!, 6, 'beyond');

      // Learned (every second here) and in the index version, so the page's caches refresh within a second.
      await expect.poll(async () => (await pageOrder(browser, stack, query)).slice(0, 3), { timeout: 30_000 }).toContain(lifted);
      const learned = await pageOrder(browser, stack, query);
      expect(learned).not.toContain(beyond);
      // Only the first 20 by text match are on the first page, the others in their order (popularity, on here, may reorder equal matches).
      const textNow = (await textOrder(stack, query)).ids.slice(0, 20);
      expect(new Set(learned)).toEqual(new Set(textNow));
      expect(learned.filter((id) => id !== lifted)).toEqual(textNow.filter((id) => id !== lifted));

      // The editor sees the query re-ranked, axe-clean, and switches it off.
      const editorContext = await browser.newContext({ bypassCSP: true, httpCredentials: { username: 'editor', password: editorToken(stack.secretsFile) } });
      const report = await editorContext.newPage();
      await report.goto(new URL(REPORT_PATH, stack.url).href);
      await islandsSettled(report);
      const row = report.locator(`table.search-report__reranked tr[data-query="${query}"]`);
      // From where text match put it when it learned (popularity, on here, may have moved it among equal matches).
      await expect(row.locator('td').first()).toContainText(new RegExp(`${lifted}: ([4-9]|1\\d|20) → 1 \\(${VISITORS} visitors\\)`));
      expect(await axeViolations(report)).toEqual([]);
      await row.getByRole('button', { name: `Switch off re-ranking for “${query}”` }).click();
      await expect(report.getByRole('status')).toContainText(`Re-ranking for “${query}” is off`);
      await expect(report.locator(`table.search-report__reranking-off tr[data-query="${query}"]`).getByRole('button', { name: `Switch on re-ranking for “${query}”` })).toBeVisible();
      await islandsSettled(report);
      expect(await axeViolations(report)).toEqual([]);
      await editorContext.close();

      // The text order is back on the page. A mismatch says both orders and where the lifted result is
      // (a CI run beside two busy loops once saw them differ for the whole 30 s, with no more said).
      await expect.poll(async () => {
        const [order, text] = await Promise.all([pageOrder(browser, stack, query), textOrder(stack, query)]);
        const textIds = text.ids.slice(0, 20);
        const [onPage, byText] = [order.join(' '), textIds.join(' ')];
        if (onPage === byText) return 'the text order';
        return `page: ${onPage} | text: ${byText} | ${lifted} at ${order.indexOf(lifted) + 1} on the page, ${textIds.indexOf(lifted) + 1} by text`;
      }, { timeout: 30_000 }).toBe('the text order');
    } finally {
      await stack.close();
    }
  });
});
