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

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
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

  test('while three heavy public multi_search requests run, an article page answers in under 300 ms and a search in under 200 ms', async ({ stack }) => {
    // Warm both paths, then measure them alone (the shared machine's speed varies).
    for (let i = 0; i < 4; i++) {
      await fetch(new URL(ARTICLE_PATH, stack.url));
      await ordinarySearch(stack.searchUrl);
    }
    const alonePage: number[] = [];
    const aloneSearch: number[] = [];
    for (let i = 0; i < 5; i++) {
      alonePage.push((await timed(() => fetch(new URL(ARTICLE_PATH, stack.url)).then((r) => r.text()))).ms);
      aloneSearch.push((await timed(() => ordinarySearch(stack.searchUrl).then((r) => r.json()))).ms);
    }

    // Three clients each sending, back to back, the heaviest request the public key may send.
    const heavyBody = JSON.stringify({
      searches: Array.from({ length: 50 }, () => ({ collection: DEFAULT_SEARCH_INDEX_NAME, q: 'leedrship '.repeat(12).trim(), query_by: FIELDS, highlight_full_fields: FIELDS, per_page: 20 })),
    });
    let running = true;
    let heavyAnswers = 0;
    const heavyClients = Array.from({ length: 3 }, async () => {
      while (running) {
        const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}&limit_multi_searches=100000`, { method: 'POST', body: heavyBody });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        heavyAnswers++;
      }
    });
    const pageTimes: number[] = [];
    const searchTimes: number[] = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let i = 0; i < 10; i++) {
        const pageRun = await timed(() => fetch(new URL(ARTICLE_PATH, stack.url)).then(async (r) => ({ status: r.status, html: await r.text() })));
        expect(pageRun.value.status).toBe(200);
        pageTimes.push(pageRun.ms);
        const searchRun = await timed(() => ordinarySearch(stack.searchUrl).then((r) => r.json()));
        expect(searchRun.value.results[0].found).toBeGreaterThan(0);
        searchTimes.push(searchRun.ms);
      }
    } finally {
      running = false;
      await Promise.all(heavyClients);
    }
    const p90 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.9) - 1] as number;
    console.log(
      `article page ms alone ${alonePage.map((t) => t.toFixed(0)).join(', ')} / under load ${pageTimes.map((t) => t.toFixed(0)).join(', ')}; ` +
        `search ms alone ${aloneSearch.map((t) => t.toFixed(0)).join(', ')} / under load ${searchTimes.map((t) => t.toFixed(0)).join(', ')}; ${heavyAnswers} heavy answers`,
    );
    expect(heavyAnswers).toBeGreaterThan(0);
    // Nine of ten within the bound — or, when the shared machine is so loaded that the request
    // alone is slow, within 3× its unloaded time.
    expect(p90(pageTimes)).toBeLessThan(Math.max(300, 3 * p90(alonePage)));
    expect(p90(searchTimes)).toBeLessThan(Math.max(200, 3 * p90(aloneSearch)));
  });
});
