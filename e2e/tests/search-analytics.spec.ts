// Issue 25 (search analytics): what editors' curation rules send with a search, what the site
// records of the visitors' searches, and the editors' report on it.
import { expect, islandsSettled, test } from '../harness/fixtures.js';

/** The "kpi" curation rule's banner (mf-search/server/search-sets/curations.json). */
const KPI_BANNER = { title: 'Measuring what matters', text: 'Start with our guide to KPIs that help a team instead of misleading it.', href: '/articles/kpis-that-matter' };

/** Waits until the shell renders `path` with the remotes' server builds (a cold start renders placeholders). */
async function serverRendered(base: string, path: string, marker: string): Promise<void> {
  await expect.poll(async () => (await (await fetch(new URL(path, base))).text()).includes(marker), { timeout: 15_000 }).toBe(true);
}

test.describe("a curation rule's banner on the search page", () => {
  test('without JavaScript: the server renders the banner (title as its link, text) above the hits', async ({ browser, stack }) => {
    await serverRendered(stack.url, '/search?q=kpi', 'khs-search-banner');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL('/search?q=kpi', stack.url).href);
    const banner = page.locator('.khs-search-banner');
    await expect(banner.getByRole('link', { name: KPI_BANNER.title })).toHaveAttribute('href', KPI_BANNER.href);
    await expect(banner).toContainText(KPI_BANNER.text);
    // Above the first hit, in document order.
    expect(await page.locator('.khs-search-banner, .khs-search-teaser').first().getAttribute('class')).toBe('khs-search-banner');
    // A search no rule curates shows none.
    await page.goto(new URL('/search?q=negotiation', stack.url).href);
    await expect(page.locator('.khs-search-teaser').first()).toBeVisible();
    await expect(page.locator('.khs-search-banner')).toHaveCount(0);
    await context.close();
  });

  test('with JavaScript: the banner stays when the list hydrates (focus in the box), from the server answer, with no second search', async ({ page, stack }) => {
    await serverRendered(stack.url, '/search?q=kpi', 'khs-search-banner');
    const searchedQueries: string[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('multi_search')) return;
      const body = request.postDataJSON() as { searches: Array<{ q?: string }> };
      searchedQueries.push(...body.searches.map((search) => search.q ?? ''));
    });
    await page.goto(new URL('/search?q=kpi', stack.url).href);
    await islandsSettled(page);
    await page.locator('.khs-search-banner').evaluate((element) => void ((element as HTMLElement & { fromServer?: boolean }).fromServer = true));
    const island = page.locator('[data-island="mf-search/SearchList"]');
    await expect(island).toHaveAttribute('data-search-list', 'bound');

    await page.locator('.khs-search-list').getByRole('combobox').focus();
    await expect(island).toHaveAttribute('data-search-list', 'interactive');
    const banner = page.locator('.khs-search-banner');
    await expect(banner.getByRole('link', { name: KPI_BANNER.title })).toHaveAttribute('href', KPI_BANNER.href);
    await expect(banner).toContainText(KPI_BANNER.text);
    // Hydrated, not replaced: the very element the server sent.
    expect(await banner.evaluate((element) => (element as HTMLElement & { fromServer?: boolean }).fromServer)).toBe(true);

    // The next search the list sends is the visitor's next query: none for "kpi" came before it.
    await page.locator('.khs-search-list').getByRole('combobox').press('End');
    await page.locator('.khs-search-list').getByRole('combobox').pressSequentially('s');
    await expect.poll(() => searchedQueries.length).toBeGreaterThan(0);
    expect(searchedQueries[0]).toBe('kpis');
  });
});
