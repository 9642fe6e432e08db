import { listArticles } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME, examplePageConfig } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { ADMIN_API_KEY, SEARCH_API_KEY, STACK_START_TIMEOUT_MS, startStack } from '../harness/stack.js';

// The search server is its own supervised process: what the site does while it is killed,
// comes back, or is loaded with heavy public requests.

const ARTICLE_COUNT = listArticles().length;
const HITS_PER_PAGE = examplePageConfig().search.limit;
const ARTICLE_PATH = '/articles/negotiating-with-suppliers';
const FIELDS = 'title,headline,intro,content';

const list = (page: Page) => page.locator('.khs-search-list');
const listBox = (page: Page) => list(page).getByRole('combobox');
const teasers = (page: Page) => list(page).locator('.khs-search-teaser');

async function openSearch(page: Page, base: string): Promise<void> {
  await page.goto(new URL('/search', base).href);
  await islandsSettled(page);
  await expect(list(page)).toHaveAttribute('data-status', 'idle');
}

/** A search as the browser sends it (public search-only key, one search). */
function ordinarySearch(searchUrl: string) {
  return fetch(`${searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q: 'leadership', query_by: FIELDS, highlight_full_fields: FIELDS, per_page: HITS_PER_PAGE, facet_by: 'topic' }] }),
  });
}

test.describe('search server as its own process', () => {
  test('killed: pages keep serving, search shows its error state, the supervisor brings it back with its data', async ({ page }) => {
    // Starts a stack of its own and waits out a restart back-off: more than the default 45 s on a busy machine.
    test.setTimeout(test.info().timeout + STACK_START_TIMEOUT_MS);
    // A long first restart delay keeps the server down long enough to look at the error state.
    const stack = await startStack({ searchEnv: { SEARCH_RESTART_BACKOFF_MS: '4000' } });
    try {
      await openSearch(page, stack.url);
      await expect(teasers(page)).toHaveCount(HITS_PER_PAGE);
      const killedPid = stack.searchPid();
      const restarted = stack.killSearchServer();

      const article = await fetch(new URL(ARTICLE_PATH, stack.url));
      expect(article.status).toBe(200);
      expect(await article.text()).toContain('<h1');
      await listBox(page).fill('leadership');
      await listBox(page).press('Enter');
      await expect(list(page)).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
      await expect(page.locator('.site-header')).toBeVisible();
      await expect(listBox(page)).toBeEditable();

      const { pid } = await restarted;
      expect(pid).not.toBe(killedPid);
      // Its data came back from the data folder: nobody re-imported (the shell indexes only when it starts).
      const collection = await fetch(`${stack.searchUrl}/collections/${DEFAULT_SEARCH_INDEX_NAME}`, { headers: { 'x-typesense-api-key': ADMIN_API_KEY } });
      expect((await collection.json()).num_documents).toBe(ARTICLE_COUNT);
      // And the page's search works again.
      await listBox(page).fill('negotiating');
      await listBox(page).press('Enter');
      await expect(list(page)).toHaveAttribute('data-status', 'idle');
      await expect(teasers(page).filter({ has: page.locator(`a[href="${ARTICLE_PATH}"]`) })).toHaveCount(1);
    } finally {
      await stack.close();
    }
  });

  // How fast they answer meanwhile is a figure, not a bound of this test (it would hold only on a
  // quiet machine): `npx tsx scripts/bench-search-isolation.ts` prints it beside the same requests alone.
  test('while three heavy public multi_search requests run, article pages and ordinary searches keep answering', async ({ stack }) => {
    // Three clients each sending, back to back, the heaviest request the public key may send.
    const heavyBody = JSON.stringify({
      searches: Array.from({ length: 50 }, () => ({ collection: DEFAULT_SEARCH_INDEX_NAME, q: 'leedrship '.repeat(12).trim(), query_by: FIELDS, highlight_full_fields: FIELDS, per_page: 20 })),
    });
    const stopHeavy = new AbortController();
    const heavyClients = Array.from({ length: 3 }, async () => {
      while (!stopHeavy.signal.aborted) {
        const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}&limit_multi_searches=100000`, { method: 'POST', body: heavyBody, signal: stopHeavy.signal });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
    });
    const queuedSearches = async () => ((await (await fetch(`${stack.searchUrl}/stats.json`, { headers: { 'x-typesense-api-key': ADMIN_API_KEY } })).json()) as { queued: number }).queued;
    try {
      // The heavy load is on (searches of the heavy requests wait in the server's queue) before the
      // site is asked; waiting for a whole heavy answer instead took most of the test's time on a busy machine.
      await expect.poll(queuedSearches, { intervals: [50] }).toBeGreaterThan(0);
      for (let i = 0; i < 5; i++) {
        const article = await fetch(new URL(ARTICLE_PATH, stack.url));
        expect(article.status).toBe(200);
        expect(await article.text()).toContain('<h1');
        const answer = (await (await ordinarySearch(stack.searchUrl)).json()) as { results: Array<{ found: number }> };
        expect(answer.results[0]!.found).toBeGreaterThan(0);
      }
    } finally {
      // The server drops a closed request's queued searches: the load ends without computing them.
      stopHeavy.abort();
      await Promise.all(heavyClients.map((client) => client.catch((error: unknown) => (stopHeavy.signal.aborted && (error as Error).name === 'AbortError' ? undefined : Promise.reject(error)))));
    }
  });
});
