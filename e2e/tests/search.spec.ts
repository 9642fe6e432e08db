import { listArticles } from '@khs/content';
import {
  examplePageConfig,
  INSIGHTS_EVENT_CHUNK,
  SEARCH_INPUT_MAX_LENGTH,
  URL_WRITE_DELAY_MS,
} from 'contracts';
import type { Page, Request } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { STACK_START_TIMEOUT_MS, startStack } from '../harness/stack.js';

/**
 * Console errors of the page, except the browser's favicon 404 (the shell serves no favicon;
 * the harness's `problems.errors` cannot tell it apart because the message has no URL).
 */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

const ARTICLE_COUNT = listArticles().length;
const { i18n, search: searchConfig } = examplePageConfig();
const HITS_PER_PAGE = searchConfig.limit;
const viewing = (count: number, total: number) => i18n.viewing.replace('{count}', String(count)).replace('{total}', String(total));

const list = (page: Page) => page.locator('.khs-search-list');
const listBox = (page: Page) => list(page).getByRole('combobox');
const headerBox = (page: Page) => page.locator('.site-header').getByRole('combobox');
const teasers = (page: Page) => list(page).locator('.khs-search-teaser');
const chips = (page: Page) => page.getByRole('list', { name: 'Applied filters' });

async function openSearch(page: Page, base: string, query = ''): Promise<void> {
  await page.goto(new URL(query ? `/search?q=${encodeURIComponent(query)}` : '/search', base).href);
  await islandsSettled(page);
  await expect(list(page)).toHaveAttribute('data-status', 'idle');
}

/** Types into the list's box and submits, then waits for the answer of that query. */
async function searchFor(page: Page, text: string): Promise<void> {
  await listBox(page).fill(text);
  await listBox(page).press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, '(\\+|%20)')}`));
  await expect(list(page)).toHaveAttribute('data-status', 'idle');
}

test.describe('search list', () => {
  test('a query with a typo finds the article with the match highlighted', async ({ page, stack, problems }) => {
    const errors = consoleErrors(page);
    await openSearch(page, stack.url);
    await searchFor(page, 'negotaiting');
    const teaser = teasers(page).filter({ has: page.locator('a[href="/articles/negotiating-with-suppliers"]') });
    await expect(teaser).toHaveCount(1);
    await expect(teaser.locator('mark').first()).toHaveText(/^negotiat/i);
    await expect(teaser.locator('.khs-search-teaser__cta')).toBeVisible();
    expect(problems.failedResponses).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('facets appear only after a query; a chip removes its filter', async ({ page, stack }) => {
    const errors = consoleErrors(page);
    await openSearch(page, stack.url);
    await expect(teasers(page)).toHaveCount(HITS_PER_PAGE);
    await expect(page.getByRole('button', { name: i18n.filter })).toBeHidden();

    await searchFor(page, 'feedback');
    const toggle = page.getByRole('button', { name: i18n.filter });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const unfiltered = await teasers(page).count();
    const searches: Array<{ searches: unknown[] }> = [];
    page.on('request', (request) => {
      // A read of the index version (mf-search's `<index>_index_version`, at most once a second) is no search of the list.
      if (request.url().includes('/multi_search') && !request.postData()?.includes('_index_version')) searches.push(request.postDataJSON() as { searches: unknown[] });
    });
    await page.getByRole('group', { name: 'Topic' }).getByRole('checkbox', { name: /^Coaching/ }).check();
    await expect(chips(page)).toContainText('Coaching');
    await expect(list(page)).toHaveAttribute('data-status', 'idle');
    // One multi-search request per search: the hits query and the refined facet's own query together.
    expect(searches.map((body) => body.searches.length)).toEqual([2]);
    await expect(page).toHaveURL(/topic=Coaching/);
    for (const tags of await teasers(page).locator('.khs-search-teaser__tags').all()) await expect(tags).toContainText('Coaching');

    await chips(page).getByRole('button', { name: 'Remove filter: Coaching' }).click();
    await expect(chips(page)).toBeHidden();
    await expect(teasers(page)).toHaveCount(unfiltered);
    await expect(page).not.toHaveURL(/topic=/);
    expect(errors).toEqual([]);
  });

  // Back and forward while the list is only bound (after a reload): the second move comes before
  // the list's script ran, every time (the page's mf-search scripts are held until then), as on a
  // slow phone or a loaded CI machine (where the chips were missing after goForward: the binding
  // that reloads a moved address was not listening yet, and then took the moved address for its own).
  test('the address keeps query, filters and page: reload, back and forward restore them', async ({ page, stack }) => {
    test.setTimeout(120_000);
    const errors = consoleErrors(page);
    // A slow phone's CPU.
    await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await openSearch(page, stack.url);
    await searchFor(page, 'team');
    await page.getByRole('button', { name: i18n.filter }).click();
    await page.getByRole('group', { name: 'Topic' }).getByRole('checkbox', { name: /^Leadership/ }).check();
    await expect(page).toHaveURL(/topic=Leadership/);
    const filteredUrl = page.url();
    await expect(list(page)).toHaveAttribute('data-status', 'idle');
    const filteredCount = await teasers(page).count();

    await page.waitForTimeout(URL_WRITE_DELAY_MS + 100);
    await page.reload();
    await islandsSettled(page);
    await expect(listBox(page)).toHaveValue('team');
    await expect(teasers(page)).toHaveCount(filteredCount);
    await expect(chips(page)).toContainText('Leadership');

    const searchScripts = (url: URL) => url.origin === stack.remotes['mf-search'] && url.pathname.endsWith('.js');
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(searchScripts, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goBack();
    await expect(page).not.toHaveURL(/topic=/);
    await expect(chips(page)).toBeHidden();
    await expect(listBox(page)).toHaveValue('team');
    await page.goForward();
    await expect(page).toHaveURL(filteredUrl);
    releaseScripts();
    await expect(chips(page)).toContainText('Leadership');
    await expect(list(page)).toHaveAttribute('data-status', 'idle');
    await page.unroute(searchScripts);

    // The page travels too: load more, reload, every loaded hit is back.
    await openSearch(page, stack.url);
    await page.getByRole('link', { name: i18n.loadMore }).click();
    await expect(teasers(page)).toHaveCount(2 * HITS_PER_PAGE);
    await expect(page).toHaveURL(/page=2/);
    await page.reload();
    await islandsSettled(page);
    await expect(teasers(page)).toHaveCount(2 * HITS_PER_PAGE);
    await expect(list(page).getByText(viewing(2 * HITS_PER_PAGE, ARTICLE_COUNT))).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('load more until the last page, with "viewing X of Y" and the progress bar', async ({ page, stack }) => {
    const errors = consoleErrors(page);
    await openSearch(page, stack.url);
    for (let loaded = HITS_PER_PAGE; loaded < ARTICLE_COUNT; loaded += HITS_PER_PAGE) {
      await expect(teasers(page)).toHaveCount(loaded);
      await expect(list(page).getByText(viewing(loaded, ARTICLE_COUNT))).toBeVisible();
      const progress = list(page).locator('progress');
      await expect(progress).toHaveAttribute('value', String(loaded));
      await expect(progress).toHaveAttribute('max', String(ARTICLE_COUNT));
      await page.getByRole('link', { name: i18n.loadMore }).click();
    }
    await expect(teasers(page)).toHaveCount(ARTICLE_COUNT);
    await expect(page.getByRole('link', { name: i18n.loadMore })).toHaveCount(0);
    await expect(list(page).locator('progress')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test(`a query of 600 characters is cut to ${SEARCH_INPUT_MAX_LENGTH}`, async ({ page, stack }) => {
    await openSearch(page, stack.url);
    await listBox(page).fill('a'.repeat(600));
    await expect(listBox(page)).toHaveValue('a'.repeat(SEARCH_INPUT_MAX_LENGTH));
    await listBox(page).press('Enter');
    await expect(page).toHaveURL(new RegExp(`q=a{${SEARCH_INPUT_MAX_LENGTH}}(&|$)`));
  });
});

test.describe('autocomplete', () => {
  test('keyboard paths of the header search: arrows wrap, Escape closes then clears, Tab closes, Enter goes to the search page', async ({ page, stack }) => {
    const errors = consoleErrors(page);
    await page.goto(stack.url);
    await islandsSettled(page);
    const box = headerBox(page);
    await box.fill('lead');
    const options = page.locator('.site-header').getByRole('option');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    const count = await options.count();
    expect(count).toBeGreaterThan(1);
    for (const text of await options.allTextContents()) expect(text.toLowerCase()).toContain('lead');
    await expect(options.first().locator('mark')).toHaveText(/lead/i);

    const active = async () => page.evaluate((id) => (id ? document.getElementById(id)?.textContent : null), await box.getAttribute('aria-activedescendant'));
    await box.press('ArrowDown');
    expect(await active()).toBe(await options.nth(0).textContent());
    await box.press('ArrowUp');
    expect(await active()).toBe(await options.nth(count - 1).textContent());
    await box.press('ArrowDown');
    expect(await active()).toBe(await options.nth(0).textContent());

    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toHaveValue('lead');
    await box.press('Escape');
    await expect(box).toHaveValue('');

    await box.fill('lead');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await box.press('Tab');
    await expect(box).toHaveAttribute('aria-expanded', 'false');

    await box.focus();
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    const chosen = (await active())!;
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${encodeURIComponent(chosen).replace(/%20/g, '\\+')}`.replace(/[()]/g, '\\$&')));
    await islandsSettled(page);
    await expect(listBox(page)).toHaveValue(chosen);
    expect(errors).toEqual([]);
  });

  test('Enter without a suggestion goes to the search page with the query', async ({ page, stack }) => {
    await expect.poll(async () => (await (await fetch(stack.url)).text()).includes('role="combobox"'), { timeout: 15_000 }).toBe(true);
    await page.goto(stack.url);
    await islandsSettled(page);
    await headerBox(page).fill('coaching');
    await headerBox(page).press('Enter');
    await expect(page).toHaveURL(/\/search\?q=coaching$/);
    await islandsSettled(page);
    await expect(listBox(page)).toHaveValue('coaching');
  });
});

test.describe('header search on pages without the search list', () => {
  test('loads the search client only on first use, keeps every keystroke typed while it loads, without moving', async ({ page, stack }) => {
    const errors = consoleErrors(page);
    const searchOrigin = stack.remotes['mf-search'];
    // Scripts of the search remote, and whether they hold the search client (typesense's key header).
    const scripts: Array<Promise<{ url: string; searchClient: boolean }>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(searchOrigin)) {
        // A script still arriving when the test ends (the search page after Enter) has no body to read: not a failure.
        scripts.push(response.text().catch(() => '').then((body) => ({ url: response.url(), searchClient: body.includes('x-typesense-api-key') })));
      }
    });
    // Once the page is up, the remote's scripts answer slowly, so the visitor types while the code loads.
    let slow = false;
    await page.route(`${searchOrigin}/**/*.js`, async (route) => {
      if (slow) await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });

    // The box is the search remote's server render (it hydrates on the first interaction).
    const articleUrl = new URL(listArticles()[0]!.url, stack.url).href;
    await expect.poll(async () => (await (await fetch(articleUrl)).text()).includes('role="combobox"'), { timeout: 15_000 }).toBe(true);
    await page.goto(articleUrl);
    await islandsSettled(page);
    await page.waitForLoadState('networkidle');
    // Nothing of the search box or its client loads before the reader reaches for the box (it
    // hydrates on interaction; the server's GET form works until then): of the search remote only
    // its entry and every page's conversion listener (no markup, no React, no search client).
    expect((await Promise.all(scripts)).map((script) => ({ file: new URL(script.url).pathname.replace(/\.[0-9a-f]{8}\.js$/, '.js'), searchClient: script.searchClient })).sort((a, b) => a.file.localeCompare(b.file))).toEqual([
      { file: '/__federation_expose_SearchConversions.js', searchClient: false },
      { file: '/remoteEntry.js', searchClient: false },
    ]);

    const box = headerBox(page);
    const form = page.locator('.site-header form[role="search"]');
    const before = await form.boundingBox();
    slow = true;
    await box.focus();
    await box.pressSequentially('feedback');
    await expect(box).toHaveValue('feedback');
    const options = page.locator('.site-header').getByRole('option');
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    for (const text of await options.allTextContents()) expect(text.toLowerCase()).toContain('feedback');
    expect((await Promise.all(scripts)).some((script) => script.searchClient)).toBe(true);
    expect(await form.boundingBox()).toEqual(before);

    // The rest of the autocomplete behaves as before: Escape closes, Enter goes to the search page.
    await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=feedback$/);
    expect(errors).toEqual([]);
  });
});

test.describe('insights and tracking', () => {
  test(`insights events go to the collector after consent only, in chunks of ${INSIGHTS_EVENT_CHUNK} object ids`, async ({ page, stack }) => {
    const posts: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/insights/events') posts.push(request);
    });
    await openSearch(page, stack.url);
    await page.getByRole('link', { name: i18n.loadMore }).click();
    await expect(teasers(page)).toHaveCount(2 * HITS_PER_PAGE);
    await page.waitForTimeout(500);
    expect(posts).toHaveLength(0);
    expect((await page.context().cookies()).some((cookie) => cookie.name === '_ALGOLIA')).toBe(false);

    await page.evaluate(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: false })));
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/insights/events');
    await openSearch(page, stack.url);
    expect((await answered).status()).toBe(200);
    // Loaded pages come back from the session cache; one more page sends one more view event.
    const shown = await teasers(page).count();
    await page.getByRole('link', { name: i18n.loadMore }).click();
    await expect(teasers(page)).toHaveCount(shown + HITS_PER_PAGE);
    await expect.poll(() => posts.length).toBeGreaterThan(1);

    const events = posts.flatMap((post) => (post.postDataJSON() as { events: Array<{ eventType: string; objectIDs: string[]; userToken: string }> }).events);
    const views = events.filter((event) => event.eventType === 'view');
    expect(views.length).toBeGreaterThanOrEqual(2);
    for (const event of events) expect(event.objectIDs.length).toBeLessThanOrEqual(INSIGHTS_EVENT_CHUNK);
    expect(views.some((event) => event.objectIDs.length === INSIGHTS_EVENT_CHUNK)).toBe(true);
    expect(new Set(events.map((event) => event.userToken)).size).toBe(1);
    const cookie = (await page.context().cookies()).find((c) => c.name === '_ALGOLIA');
    expect(cookie?.value).toBe(events[0]!.userToken);
    const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(170);
    expect(days).toBeLessThan(190);

    const click = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/insights/events' && request.postData()!.includes('"click"'));
    await teasers(page).first().locator('a').click();
    const clickEvents = ((await click).postDataJSON() as { events: Array<{ eventType: string; objectIDs: string[] }> }).events;
    expect(clickEvents.find((event) => event.eventType === 'click')!.objectIDs).toHaveLength(1);
  });

  test('search-submitted reaches the analytics tracker', async ({ page, stack }) => {
    await page.addInitScript(() => {
      localStorage.setItem('khs:consent', JSON.stringify({ insights: false, tracking: true }));
      (window as unknown as { _paq: unknown[][] })._paq = [];
    });
    await openSearch(page, stack.url);
    await searchFor(page, 'feedback');
    const hitCount = Number(/of (\d+)/.exec((await list(page).textContent()) ?? '')?.[1] ?? (await teasers(page).count()));
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { _paq: unknown[][] })._paq.filter((command) => command[0] === 'trackSiteSearch')))
      .toEqual([['trackSiteSearch', 'feedback', false, hitCount]]);
  });
});

test.describe('site-search tracking to the search service', () => {
  const isTracking = (request: Request) => new URL(request.url()).pathname === '/api/insights/searches';

  test('with tracking consent: each submitted search goes to the service through the edge (204), normalised there; Matomo still gets it', async ({ page, stack }) => {
    await page.addInitScript(() => {
      localStorage.setItem('khs:consent', JSON.stringify({ insights: false, tracking: true }));
      (window as unknown as { _paq: unknown[][] })._paq = [];
    });
    const opened = page.waitForResponse((response) => isTracking(response.request()));
    await page.goto(new URL("/search?q=Leadership", stack.url).href);
    const openedAnswer = await opened;
    expect(openedAnswer.status()).toBe(204);
    const openedRecord = openedAnswer.request().postDataJSON() as { query: string; hitCount: number; filters: object; page: string };
    expect(openedRecord).toEqual({ query: 'Leadership', hitCount: expect.any(Number), filters: {}, page: '/search', queryID: expect.stringMatching(/^s-/) });
    expect(openedRecord.hitCount).toBeGreaterThan(0);

    const typed = page.waitForResponse((response) => isTracking(response.request()));
    await searchFor(page, 'xyzzy-nothing-matches');
    const typedAnswer = await typed;
    expect(typedAnswer.status()).toBe(204);
    expect(typedAnswer.request().postDataJSON()).toEqual({ query: 'xyzzy-nothing-matches', hitCount: 0, filters: {}, page: '/search', queryID: expect.stringMatching(/^s-/) });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { _paq: unknown[][] })._paq.filter((command) => command[0] === 'trackSiteSearch').map((command) => command[1])))
      .toEqual(['Leadership', 'xyzzy-nothing-matches']);
  });

  test("a result opened from the server-rendered list and saved on its article page is that search's conversion, one query id throughout", async ({ page, stack }) => {
    await page.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: true })));
    const insightsEvents: Array<{ eventType: string; objectIDs: string[]; queryID?: string }> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/insights/events') insightsEvents.push(...(request.postDataJSON() as { events: typeof insightsEvents }).events);
    });
    const record = page.waitForRequest(isTracking);
    await page.goto(new URL("/search?q=Leadership", stack.url).href);
    const { queryID } = (await record).postDataJSON() as { queryID: string };
    expect(queryID).toMatch(/^s-/);
    const first = teasers(page).first();
    const objectId = await first.getAttribute('data-object-id');
    await first.locator('a').first().click();
    await expect(page.locator('.article__watchlist')).toBeVisible();
    // The article page's listener: no markup, mounted when the browser is idle (the header search, untouched, never loads).
    await expect(page.locator('[data-island="mf-search/SearchConversions"]')).toHaveAttribute('data-island-state', 'mounted');
    await expect(page.locator('[data-island="mf-search/HeaderSearch"]')).toHaveAttribute('data-island-hydrate', 'interaction');
    const conversion = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/insights/events' && request.postData()!.includes('"conversion"'));
    await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
    const sent = ((await conversion).postDataJSON() as { events: typeof insightsEvents }).events;
    expect(sent).toEqual([expect.objectContaining({ eventType: 'conversion', objectIDs: [objectId], queryID })]);
    expect(insightsEvents.filter((event) => event.eventType === 'click')).toEqual([expect.objectContaining({ objectIDs: [objectId], queryID })]);
  });

  test('without tracking consent (insights consent alone) nothing is sent', async ({ page, stack }) => {
    await page.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: false })));
    // Beacons are not in resource timing: the requests themselves are watched.
    const sent: Request[] = [];
    const insightsCalls: Request[] = [];
    page.on('request', (request) => {
      if (isTracking(request)) sent.push(request);
      if (new URL(request.url()).pathname === '/api/insights/events') insightsCalls.push(request);
    });
    await page.goto(new URL("/search?q=Leadership", stack.url).href);
    await islandsSettled(page);
    await searchFor(page, 'feedback');
    await expect(teasers(page).first()).toBeVisible();
    // The insights view events of the same searches do go out: the page did report what it may.
    await expect.poll(() => insightsCalls.length).toBeGreaterThan(0);
    expect(sent).toEqual([]);
  });
});

test.describe('search server failure', () => {
  test('search server stopped: status error, nothing shown, the page stays intact', async ({ page }) => {
    // Starts a stack of its own: its start on top of the test's own time.
    test.setTimeout(test.info().timeout + STACK_START_TIMEOUT_MS);
    const stack = await startStack({ separateSearchServer: true });
    try {
      await openSearch(page, stack.url);
      await expect(teasers(page)).toHaveCount(HITS_PER_PAGE);
      await stack.stopSearch();
      await listBox(page).fill('leadership');
      await listBox(page).press('Enter');
      await expect(list(page)).toHaveAttribute('data-status', 'error', { timeout: 15_000 });
      await expect(list(page).getByRole('status')).toHaveText('');
      await expect(page.locator('.site-header')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Search articles' })).toBeVisible();
      await expect(listBox(page)).toBeEditable();
    } finally {
      await stack.close();
    }
  });
});
