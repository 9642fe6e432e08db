import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import type { Browser } from '@playwright/test';
import { expect, startStackInTest, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, SEARCH_API_KEY, type Stack } from '../harness/stack.js';

// Popularity from behaviour (SEARCH_POPULARITY=on): visitors' clicks and saves sent to the insights
// collector through the shell move an article above an equally matching one on the search page;
// one visitor's many clicks move nothing.

const FIELDS = 'headline,title,intro,content';
/** Candidate queries; the test uses the first whose hits include two with the same text match. */
const CANDIDATES = ['leadership', 'team', 'feedback', 'project', 'management', 'communication', 'strategy', 'data', 'meeting', 'work', 'the', 'and'];

/** The article ids of the server-rendered search page, in order, as a visitor without JavaScript sees them. */
async function pageOrder(browser: Browser, stack: Stack, query: string): Promise<string[]> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(new URL(`/search?q=${encodeURIComponent(query)}`, stack.url).href);
    const hrefs = await page.locator('.khs-search-list .khs-search-teaser').evaluateAll((teasers) =>
      teasers.map((teaser) => (teaser.matches('a') ? teaser.getAttribute('href') : teaser.querySelector('a')?.getAttribute('href')) ?? ''),
    );
    return hrefs.map((href) => href.replace(/^.*\/articles\//, ''));
  } finally {
    await context.close();
  }
}

/**
 * The order of a whole server render. A render that missed the island's budget (a busy machine, an
 * answer no longer cached after the index version moved) shows the shell's placeholder, no hits: a
 * visitor would reload, and so does this.
 */
async function renderedOrder(browser: Browser, stack: Stack, query: string): Promise<string[]> {
  let order: string[] = [];
  await expect.poll(async () => (order = await pageOrder(browser, stack, query)).length, { timeout: 60_000 }).toBeGreaterThan(0);
  return order;
}

/** Two hits of one query with the same text match (in no particular order). */
async function equallyMatching(stack: Stack): Promise<{ query: string; pair: [string, string] }> {
  for (const query of CANDIDATES) {
    const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q: query, query_by: FIELDS, per_page: 50, include_fields: 'id' }] }),
    });
    // `text_match` as a JSON number loses digits: the exact score is the string in `text_match_info`.
    const { results } = (await response.json()) as { results: { hits?: { document: { id: string }; text_match_info: { score: string } }[] }[] };
    const hits = results[0]?.hits ?? [];
    for (let i = 0; i + 1 < hits.length; i++) {
      if (hits[i]!.text_match_info.score === hits[i + 1]!.text_match_info.score) return { query, pair: [hits[i]!.document.id, hits[i + 1]!.document.id] };
    }
  }
  throw new Error(`no two equally matching hits for any of ${CANDIDATES.join(', ')}`);
}

/** An article's `popularity` in the index (admin read). */
async function popularityOf(stack: Stack, id: string): Promise<number | undefined> {
  const response = await fetch(`${stack.searchUrl}/collections/${DEFAULT_SEARCH_INDEX_NAME}/documents/${encodeURIComponent(id)}`, { headers: { 'x-typesense-api-key': ADMIN_API_KEY } });
  return ((await response.json()) as { popularity?: number }).popularity;
}

/** One request to the collector through the shell, as a visitor's browser sends it. */
async function sendBehaviour(stack: Stack, userToken: string, articleId: string, events: ('click' | 'conversion')[]): Promise<void> {
  const response = await fetch(new URL('/api/insights/events', stack.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      events: events.map((eventType) => ({
        eventType,
        eventName: eventType === 'click' ? 'Article Opened' : 'Article Saved',
        index: DEFAULT_SEARCH_INDEX_NAME,
        userToken,
        objectIDs: [articleId],
        ...(eventType === 'click' ? { positions: [2] } : {}),
        queryID: 'e2e-popularity',
      })),
    }),
  });
  expect(response.status).toBe(200);
}

test.describe('popularity from behaviour (SEARCH_POPULARITY=on)', () => {
  test('one visitor\'s many clicks move nothing; clicks and saves of many visitors move an article above an equally matching one', async ({ browser }) => {
    // Its own steps: two rendered orders of up to 60 s, three polls of up to 30 s; the start does not count (startStackInTest).
    test.setTimeout(test.info().timeout + 120_000);
    const stack = await startStackInTest({ env: { SEARCH_POPULARITY: 'on', SEARCH_POPULARITY_REFRESH_SECONDS: '1' } });
    try {
      const { query, pair } = await equallyMatching(stack);
      const before = await renderedOrder(browser, stack, query);
      // Which of the two the page shows first (ties end with the newer document first).
      const [upper, lower] = [...pair].sort((a, b) => before.indexOf(a) - before.indexOf(b)) as [string, string];
      expect(before.indexOf(upper)).toBeGreaterThanOrEqual(0);
      expect(before.indexOf(upper)).toBeLessThan(before.indexOf(lower));

      // One visitor: 1,000 clicks in 20 requests (the collector's 50 events each).
      for (let request = 0; request < 20; request++) await sendBehaviour(stack, 'anonymous-flooder', lower, Array(50).fill('click'));
      // A marker the updater scores (three distinct visitors' saves of another article), stored after
      // the flood: once it has a popularity, a refresh has read the flood too.
      const marker = before.find((id) => id !== upper && id !== lower)!;
      for (const visitor of ['m1', 'm2', 'm3']) await sendBehaviour(stack, `anonymous-marker-${visitor}`, marker, ['conversion']);
      await expect.poll(() => popularityOf(stack, marker), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await popularityOf(stack, lower)).toBe(0);
      const afterFlood = await renderedOrder(browser, stack, query);
      expect(afterFlood.indexOf(upper)).toBeLessThan(afterFlood.indexOf(lower));

      // Eight visitors open the lower article from the search and save it.
      for (let visitor = 0; visitor < 8; visitor++) await sendBehaviour(stack, `anonymous-visitor-${visitor}`, lower, ['click', 'conversion']);
      await expect.poll(() => popularityOf(stack, lower), { timeout: 30_000 }).toBeGreaterThan(0);
      // The render's search client caches answers under the index version, which the refresh that
      // wrote the score moves right after it (read at most a second late): the new order shows
      // without waiting out the cache (SEARCH_CACHE_SECONDS). A render without hits counts as not yet.
      await expect.poll(async () => {
        const order = await pageOrder(browser, stack, query);
        return order.includes(lower) && order.indexOf(lower) < order.indexOf(upper);
      }, { timeout: 30_000 }).toBe(true);
    } finally {
      await stack.close();
    }
  });
});
