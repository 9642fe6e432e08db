import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { listArticles, listSurveys } from '@khs/content';
import { examplePageConfig } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, serverRendered, test, wakeInteractionIslands } from '../harness/fixtures.js';
import { REPO_ROOT } from '../harness/stack.js';
import { remoteBuildVariant, VARIANTS_DIR } from '../harness/remoteVariant.js';

const { i18n, search: searchConfig } = examplePageConfig();
const HITS_PER_PAGE = searchConfig.limit;
const QUERY = 'work';

/** An article with a survey: every island kind is on its page. */
function articleWithSurvey() {
  const surveys = new Set(listSurveys().map((survey) => survey.formHandle));
  const article = listArticles().find((candidate) => candidate.surveyHandle && surveys.has(candidate.surveyHandle));
  if (!article) throw new Error('no article with a survey in the seeded content');
  return article;
}

/** Console errors and warnings (hydration mismatches are logged as warnings), favicon aside. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if ((message.type() === 'error' || message.type() === 'warning') && !message.location().url.endsWith('/favicon.ico')) {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  return problems;
}

/** A copy of a remote's build whose manifest differs (a new release), changed by `change`. */
test.beforeAll(() => {
  execFileSync('mkdir', ['-p', VARIANTS_DIR]);
});

test.describe('server-rendered islands', () => {
  test('search without JavaScript: highlighted results, and load-more is a link that shows the next page too', async ({ browser, stack }) => {
    await serverRendered(stack.url, `/search?q=${QUERY}`, 'khs-search-teaser');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(new URL(`/search?q=${QUERY}`, stack.url).href);
    expect(response?.status()).toBe(200);
    const list = page.locator('.khs-search-list');
    await expect(list.locator('.khs-search-teaser')).toHaveCount(HITS_PER_PAGE);
    await expect(list.locator('.khs-search-teaser mark').first()).toHaveText(new RegExp(QUERY, 'i'));
    await expect(list.getByRole('combobox')).toHaveValue(QUERY);
    await expect(page.locator('.site-header').getByRole('combobox')).toHaveValue(QUERY);
    const total = Number(await list.locator('progress').getAttribute('max'));
    expect(total).toBeGreaterThan(2 * HITS_PER_PAGE);
    await expect(list.getByText(i18n.viewing.replace('{count}', String(HITS_PER_PAGE)).replace('{total}', String(total)))).toBeVisible();

    const loadMore = page.getByRole('link', { name: i18n.loadMore });
    await expect(loadMore).toHaveAttribute('href', `/search?q=${QUERY}&page=2`);
    await loadMore.click();
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${QUERY}&page=2$`));
    await expect(list.locator('.khs-search-teaser')).toHaveCount(2 * HITS_PER_PAGE);
    await expect(list.locator('progress')).toHaveAttribute('value', String(2 * HITS_PER_PAGE));
    await expect(page.getByRole('link', { name: i18n.loadMore })).toHaveAttribute('href', `/search?q=${QUERY}&page=3`);
    await context.close();
  });

  test('search with JavaScript: bound at once, the full island hydrates the server answer on the first interaction without searching again, and load more shifts nothing however late its page comes', async ({ page, stack }) => {
    const problems = consoleProblems(page);
    const searches: string[] = [];
    page.on('request', (request) => {
      // A read of the index version (mf-search's `<index>_index_version`) is no search of the list.
      if (request.url().includes('multi_search') && !request.postData()?.includes('_index_version')) searches.push(request.postData() ?? '');
    });
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { __shifts: number[] }).__shifts = shifts;
      new PerformanceObserver((entries) => {
        for (const entry of entries.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await serverRendered(stack.url, `/search?q=${QUERY}`, 'khs-search-teaser');
    await page.goto(new URL(`/search?q=${QUERY}`, stack.url).href);
    const serverFirstTeaser = await page.locator('.khs-search-teaser').first().evaluate((element) => {
      (element as HTMLElement & { __fromServer?: boolean }).__fromServer = true;
      return element.textContent;
    });
    await islandsSettled(page);
    const island = page.locator('[data-island="mf-search/SearchList"]');
    // Bound at once, without React or InstantSearch: the full island waits for the visitor.
    await expect(island).toHaveAttribute('data-island-state', 'mounted');
    await expect(island).toHaveAttribute('data-search-list', 'bound');

    // The first interaction (focus in the box) brings the full island: it hydrates, it does not replace.
    await page.locator('.khs-search-list').getByRole('combobox').focus();
    await expect(island).toHaveAttribute('data-search-list', 'interactive');
    expect(await page.locator('.khs-search-teaser').first().evaluate((element) => (element as HTMLElement & { __fromServer?: boolean }).__fromServer)).toBe(true);
    expect(await page.locator('.khs-search-teaser').first().textContent()).toBe(serverFirstTeaser);
    await page.waitForTimeout(600);
    expect(searches).toEqual([]);

    // Load more in place (no navigation), one search for page 2, whose answer comes 1.5 s after
    // the click at the earliest (every request takes that long now): nothing moves meanwhile or then.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 1500, downloadThroughput: -1, uploadThroughput: -1 });
    const clicked = Date.now();
    await page.getByRole('link', { name: i18n.loadMore }).click();
    await expect(page.locator('.khs-search-teaser')).toHaveCount(2 * HITS_PER_PAGE, { timeout: 20_000 });
    expect(Date.now() - clicked).toBeGreaterThan(1000);
    expect(searches).toHaveLength(1);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const cls = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts.reduce((sum, value) => sum + value, 0));
    expect(cls).toBeLessThan(0.1);
    expect(problems).toEqual([]);
  });

  test("every island of the article page is rendered by its remote before any script runs", async ({ browser, stack }) => {
    const article = articleWithSurvey();
    await serverRendered(stack.url, article.url, 'khs-survey--interactive');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const response = await page.goto(new URL(article.url, stack.url).href);
    expect(response?.status()).toBe(200);
    // mf-search: the header's combobox (the remote's autocomplete markup).
    await expect(page.locator('[data-island="mf-search/HeaderSearch"] .khs-search-header__combobox [role="combobox"]')).toHaveCount(1);
    // mf-watchlist: link with its badge (0 on the server), and the article's toggle button.
    await expect(page.locator('[data-island="mf-watchlist/WatchlistLink"] .khs-watchlist-link__badge')).toHaveText('0');
    await expect(page.locator('[data-island="mf-watchlist/WatchlistButton"] button.khs-watchlist-button__toggle')).toHaveAttribute('aria-pressed', 'false');
    // mf-survey: question and answers, no results (those need the browser's vote).
    const survey = page.locator('[data-island="mf-survey/Survey"] form.khs-survey--interactive');
    await expect(survey).toHaveAttribute('data-phase', 'answering');
    await expect(survey.getByRole('radio')).not.toHaveCount(0);
    // mf-widgets: the article's widget markup and the contents trigger are its own, and its styles are linked.
    const widgets = page.locator('[data-island="mf-widgets/ArticleWidgets"]');
    for (const widget of ['tabs', 'video', 'scroll-table', 'competence-slider', 'h-scroll', 'dialog']) {
      await expect(widgets.locator(`[data-widget="${widget}"]`).first()).toBeAttached();
    }
    await expect(page.locator('[data-island="mf-widgets/ArticleContentsTrigger"] [data-dialog-open="article-contents"]')).toHaveCount(1);
    await expect(page.locator(`head link[rel="stylesheet"][href^="${stack.remotes['mf-widgets']}/"]`)).not.toHaveCount(0);
    // Every island carries the remote's render (its state script follows it).
    const islands = await page.locator('[data-island]').evaluateAll((elements) =>
      elements.map((element) => ({
        name: element.getAttribute('data-island'),
        rendered: element.nextElementSibling?.matches('script[data-island-ssr]') ?? false,
      })),
    );
    expect(islands.filter((island) => !island.rendered)).toEqual([]);
    await context.close();
  });

  test('the article page hydrates every island without errors', async ({ page, stack }) => {
    const problems = consoleProblems(page);
    await page.goto(new URL(articleWithSurvey().url, stack.url).href);
    await islandsSettled(page);
    await wakeInteractionIslands(page);
    const states = await page.locator('[data-island]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
    expect(states.every((state) => state === 'mounted')).toBe(true);
    await page.getByRole('button', { name: i18n.watchlistAdd }).first().click();
    await expect(page.locator('.khs-watchlist-link__badge')).toHaveText('1');
    expect(problems).toEqual([]);
  });

  test("a remote's server entry missing or throwing: the page is 200 within budget and the island mounts in the browser", async ({ page, stack }) => {
    const article = articleWithSurvey();
    // Start from a shell that renders the survey with the working build (registered, polled).
    await expect
      .poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes('khs-survey--interactive'), { timeout: 15_000 })
      .toBe(true);
    const broken = {
      missing: remoteBuildVariant('mf-survey', (dir) => rmSync(path.join(dir, 'server', 'remoteEntry.js'))),
      throwing: remoteBuildVariant('mf-survey', (dir) => writeFileSync(path.join(dir, 'server', 'remoteEntry.js'), "throw new Error('broken server build');")),
    };
    try {
      for (const [kind, dir] of Object.entries(broken)) {
        stack.serveRemote('mf-survey', dir);
        // The shell notices the new manifest within its revalidation interval.
        await expect
          .poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes('khs-survey--interactive'), { timeout: 15_000, message: kind })
          .toBe(false);
        const started = Date.now();
        const response = await fetch(new URL(article.url, stack.url));
        const html = await response.text();
        expect(response.status).toBe(200);
        expect(Date.now() - started).toBeLessThan(3000);
        // A page with a placeholder where a remote failed is never kept by a shared cache (issue 27).
        expect(response.headers.get('cache-control')).toBe('private, no-cache');
        expect(response.headers.get('etag')).toBeNull();
        // The other remotes still rendered on the server.
        expect(html).toContain('khs-watchlist-button__toggle');
        await page.goto(new URL(article.url, stack.url).href);
        await islandsSettled(page);
        await expect(page.locator('[data-island="mf-survey/Survey"]')).toHaveAttribute('data-island-state', 'mounted');
        await expect(page.locator('[data-island="mf-survey/Survey"] form.khs-survey--interactive').getByRole('radio').first()).toBeVisible();
      }
    } finally {
      stack.serveRemote('mf-survey');
      for (const dir of Object.values(broken)) rmSync(dir, { recursive: true, force: true });
    }
    await expect
      .poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes('khs-survey--interactive'), { timeout: 15_000 })
      .toBe(true);
  });

  test('redeploy: a changed build of a remote is rendered by the running shell and runs in the browser', async ({ page, stack }) => {
    test.setTimeout(120_000);
    const article = articleWithSurvey();
    // A changed variant of mf-survey, built from a copy of its source.
    const source = mkdtempSync(path.join(VARIANTS_DIR, 'mf-survey-src-'));
    for (const entry of ['src', 'package.json', 'rspack.config.mjs', 'tsconfig.json', 'slice.json']) {
      cpSync(path.join(REPO_ROOT, 'mf-survey', entry), path.join(source, entry), { recursive: true });
    }
    const widget = path.join(source, 'src/components/SurveyWidget.tsx');
    writeFileSync(widget, readFileSync(widget, 'utf8').replace('data-phase={phase}', 'data-phase={phase} data-release="variant"'));
    execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--mode', 'production'], { cwd: source, stdio: 'pipe' });
    const variantDist = path.join(source, 'dist');
    expect(existsSync(path.join(variantDist, 'server', 'remoteEntry.js'))).toBe(true);
    const variantManifest = JSON.parse(readFileSync(path.join(variantDist, 'mf-manifest.json'), 'utf8'));
    const variantExposeChunks: string[] = variantManifest.exposes.flatMap((expose: { assets: { js: { sync: string[] } } }) => expose.assets.js.sync);
    try {
      const before = await (await fetch(new URL(article.url, stack.url))).text();
      expect(before).not.toContain('data-release="variant"');
      stack.serveRemote('mf-survey', variantDist);
      await expect
        .poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes('data-release="variant"'), { timeout: 15_000 })
        .toBe(true);

      const problems = consoleProblems(page);
      const scripts: string[] = [];
      page.on('request', (request) => scripts.push(request.url()));
      await page.goto(new URL(article.url, stack.url).href);
      await islandsSettled(page);
      const survey = page.locator('[data-island="mf-survey/Survey"]');
      await expect(survey).toHaveAttribute('data-island-state', 'mounted');
      // The browser runs the new build's code (its expose chunk exists only in the variant).
      expect(variantExposeChunks.some((chunk) => scripts.some((url) => url.startsWith(stack.remotes['mf-survey']) && url.endsWith(chunk)))).toBe(true);
      // The new client code renders the change too: after a client-side update the attribute is still there.
      await survey.getByRole('radio').first().check();
      await expect(survey.locator('form[data-release="variant"]')).toHaveCount(1);
      expect(problems).toEqual([]);
    } finally {
      stack.serveRemote('mf-survey');
      rmSync(source, { recursive: true, force: true });
    }
  });
});
