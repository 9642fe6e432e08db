// Issue 25 (search analytics): what editors' curation rules send with a search, what the site
// records of the visitors' searches, and the editors' report on it.
import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
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
      // A read of the index version (mf-search's `<index>_index_version`) is no search of the list.
      if (!request.url().includes('multi_search') || request.postData()?.includes('_index_version')) return;
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

/** The editor token the stack generated into its data folder (tooling/stack secrets: EDITOR_TOKEN). */
function editorToken(secretsFile: string): string {
  const token = (JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>).EDITOR_TOKEN;
  if (!token) throw new Error(`no EDITOR_TOKEN in ${secretsFile}`);
  return token;
}

const REPORT_PATH = '/editors/search-report';
/** Finds articles; no other test searches it. */
const FOUND_QUERY = 'procrastination';
const NOTHING_QUERY = 'xyzzy-procrastinot';
const NO_CONSENT_QUERY = 'kanban';

/** The cells of the report's row for `query` in the table with `tableClass`. */
async function reportRow(page: Page, tableClass: string, query: string): Promise<string[]> {
  return page.locator(`table.${tableClass} tr[data-query="${query}"]`).locator('th, td').allTextContents();
}

test.describe("site-search analytics end to end: what visitors do, the editors' report", () => {
  test('a consenting visitor searches, opens a result from the server-rendered list and saves it; another finds nothing; a visitor without consent is not recorded; the report shows it all to an editor only', async ({ browser, stack }) => {
    test.slow();
    const isAnalyticsCall = (request: Request) => ['/api/insights/searches', '/api/insights/events'].includes(new URL(request.url()).pathname);
    await serverRendered(stack.url, `/search?q=${FOUND_QUERY}`, 'khs-search-teaser');

    // 1. With consent: the search, the opened hit, the save on the article page (heard by the page's own listener).
    const consenting = await browser.newContext();
    await consenting.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: true })));
    const visitor = await consenting.newPage();
    const tracked = visitor.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/searches');
    await visitor.goto(new URL(`/search?q=${FOUND_QUERY}`, stack.url).href);
    expect((await tracked).status()).toBe(204);
    const first = visitor.locator('.khs-search-teaser').first();
    const articleId = await first.getAttribute('data-object-id');
    const clicked = visitor.waitForRequest((request) => new URL(request.url()).pathname === '/api/insights/events' && request.postData()!.includes('"click"'));
    await first.locator('a').first().click();
    expect(((await clicked).postDataJSON() as { events: Array<{ objectIDs: string[] }> }).events[0]!.objectIDs).toEqual([articleId]);
    await expect(visitor.locator('[data-island="mf-search/SearchConversions"]')).toHaveAttribute('data-island-state', 'mounted');
    const converted = visitor.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/events' && response.request().postData()!.includes('"conversion"'));
    await visitor.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
    expect((await converted).ok()).toBe(true);
    await consenting.close();

    // 2. Another visitor (consenting) searches for something that finds nothing.
    const another = await browser.newContext();
    await another.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: true })));
    const anotherPage = await another.newPage();
    const nothing = anotherPage.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/searches');
    await anotherPage.goto(new URL(`/search?q=${NOTHING_QUERY}`, stack.url).href);
    expect(((await nothing).request().postDataJSON() as { hitCount: number }).hitCount).toBe(0);
    await another.close();

    // 3. Without consent: a search, a click and a save send nothing at all.
    const declining = await browser.newContext();
    await declining.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: false, tracking: false })));
    const decliner = await declining.newPage();
    const sent: string[] = [];
    decliner.on('request', (request) => {
      if (isAnalyticsCall(request)) sent.push(request.url());
    });
    await decliner.goto(new URL(`/search?q=${NO_CONSENT_QUERY}`, stack.url).href);
    await islandsSettled(decliner);
    await decliner.locator('.khs-search-teaser').first().locator('a').first().click();
    await expect(decliner.locator('[data-island="mf-search/SearchConversions"]')).toHaveAttribute('data-island-state', 'mounted');
    await decliner.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
    await expect(decliner.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
    await declining.close();
    expect(sent).toEqual([]);

    // 4. No token: a 401 page asking for it (a browser prompts; Playwright's fails the navigation, so
    // it is read over HTTP) with nothing of the figures; a wrong one: a 403 page.
    const refused = await fetch(new URL(REPORT_PATH, stack.url));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="khs-editors", charset="UTF-8"');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const refusedPage = await refused.text();
    expect(refusedPage).toMatch(/<h1 id="search-report-title">Editors only<\/h1>/);
    expect(refusedPage).not.toContain(FOUND_QUERY);
    const wrongToken = await browser.newContext({ httpCredentials: { username: 'editor', password: 'not-the-editor-token-0123456789' } });
    const wrongPage = await wrongToken.newPage();
    expect((await wrongPage.goto(new URL(REPORT_PATH, stack.url).href))?.status()).toBe(403);
    await expect(wrongPage.locator('main')).not.toContainText(FOUND_QUERY);
    await wrongToken.close();

    // 5. The editor's report, without JavaScript: both queries with their counts, CTR and conversion; the no-result one under no results; nothing of the declining visitor.
    const editor = await browser.newContext({ httpCredentials: { username: 'editor', password: editorToken(stack.secretsFile) }, javaScriptEnabled: false });
    const report = await editor.newPage();
    await expect
      .poll(async () => {
        await report.goto(new URL(REPORT_PATH, stack.url).href);
        return reportRow(report, 'search-report__queries', FOUND_QUERY);
      })
      .toEqual([FOUND_QUERY, '1', expect.stringMatching(/^\d+\.0$/), '100%', '1.0', '100%']);
    expect(await reportRow(report, 'search-report__queries', NOTHING_QUERY)).toEqual([NOTHING_QUERY, '1', '0.0', '0%', '–', '0%']);
    const noResults = await reportRow(report, 'search-report__no-results', NOTHING_QUERY);
    expect(noResults.slice(0, 2)).toEqual([NOTHING_QUERY, '1']);
    await expect(report.locator(`table.search-report__no-results tr[data-query="${NOTHING_QUERY}"]`).getByRole('link', { name: `Add a synonym for “${NOTHING_QUERY}”` })).toHaveAttribute('href', /synonyms/);
    expect(await reportRow(report, 'search-report__no-results', FOUND_QUERY)).toEqual([]);
    expect(await reportRow(report, 'search-report__queries', NO_CONSENT_QUERY)).toEqual([]);
    await expect(report.getByRole('img', { name: 'Searches per day' })).toBeVisible();

    // The CSV export holds the same figures.
    const download = report.waitForEvent('download');
    await report.getByRole('link', { name: 'Top queries as CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv).toContain('query,searches,average_hits,clicked_searches,click_through_rate,average_click_position,converted_searches,conversion_rate\r\n');
    expect(csv).toMatch(new RegExp(`\\r\\n${FOUND_QUERY},1,\\d+,1,1,1,1,1\\r\\n`));
    expect(csv).toMatch(new RegExp(`\\r\\n${NOTHING_QUERY},1,0,0,0,,0,0\\r\\n`));
    await editor.close();

    // 6. axe-clean, as the other pages (with JavaScript, the page as composed).
    const axeContext = await browser.newContext({ bypassCSP: true, httpCredentials: { username: 'editor', password: editorToken(stack.secretsFile) } });
    const axePage = await axeContext.newPage();
    await axePage.goto(new URL(REPORT_PATH, stack.url).href);
    await islandsSettled(axePage);
    expect(await axeViolations(axePage)).toEqual([]);
    await axeContext.close();
  });
});
