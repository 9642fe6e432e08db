import { listArticles } from '@khs/content';
import { expect, islandsSettled, test, wakeInteractionIslands, watchPage } from '../harness/fixtures.js';

const [first, second] = listArticles();

test.describe('federated foundation', () => {
  test('an article page reads fully with scripts disabled', async ({ browser, stack }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL(first!.url, stack.url).href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(first!.headline || first!.title);
    await expect(page.locator('.article__intro')).toHaveText(first!.intro);
    const paragraphs = first!.content.split(/\n{2,}/);
    await expect(page.locator('.article__content p')).toHaveCount(paragraphs.length);
    await expect(page.locator('.article__meta')).toContainText(`${first!.readingTime} min read`);
    await expect(page.getByRole('img', { name: first!.imageAlt })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Watchlist' })).toHaveAttribute('href', '/watchlist');
    await expect(page.getByRole('search').first()).toBeVisible();
    await context.close();
  });

  test('a watchlist button in one island updates the badge in another, and survives a reload', async ({ page, stack, problems }) => {
    await page.goto(new URL(first!.url, stack.url).href);
    await islandsSettled(page);
    const badge = page.locator('.site-header .khs-watchlist-link__badge');
    await expect(badge).toHaveText('0');
    const button = page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' });
    await button.click();
    await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toHaveAttribute('aria-pressed', 'true');
    await expect(badge).toHaveText('1');

    await page.goto(new URL(second!.url, stack.url).href);
    await islandsSettled(page);
    await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
    await expect(badge).toHaveText('2');

    await page.reload();
    await islandsSettled(page);
    await expect(badge).toHaveText('2');
    await expect(page.locator('.article__watchlist').getByRole('button')).toHaveAttribute('aria-pressed', 'true');
    expect(problems.errors).toEqual([]);
  });

  test('corrupt watchlist data in local storage is treated as empty and repaired', async ({ page, stack }) => {
    await page.goto(stack.url);
    await page.evaluate(() => localStorage.setItem('khs:watchlist', '{"articles":[1,2,3]'));
    await page.reload();
    await islandsSettled(page);
    await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('0');
    expect(await page.evaluate(() => localStorage.getItem('khs:watchlist'))).toBe('{"articles":{}}');
  });

  test('a remote whose manifest answers 404 keeps its fallback; every other island works', async ({ page, stack }) => {
    const manifest = `${stack.remotes['mf-watchlist']}/mf-manifest.json`;
    await page.route((url) => url.href === manifest, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(new URL(first!.url, stack.url).href);
    await islandsSettled(page);

    const watchlistIslands = page.locator('[data-island^="mf-watchlist/"]');
    for (const island of await watchlistIslands.all()) await expect(island).toHaveAttribute('data-island-state', 'failed');
    // The fallbacks are the server markup: a plain link to the watchlist page stays usable.
    await expect(page.locator('.site-header').getByRole('link', { name: 'Watchlist' })).toHaveAttribute('href', '/watchlist');
    // (Islands that wait for the reader's interaction load nothing until then; one whose slice had
    // nothing to show here, a survey on an article without one, is empty and loads nothing either.)
    const others = page.locator('[data-island]:not([data-island^="mf-watchlist/"]):not([data-island-waiting="interaction"]):not([data-island-state="empty"])');
    for (const island of await others.all()) await expect(island).toHaveAttribute('data-island-state', 'mounted');
    expect(errors.filter((text) => text.includes('"mf-watchlist" failed'))).toEqual([expect.stringContaining('KHS-ISLAND-001 remote "mf-watchlist" failed (stage: manifest)')]);
  });

  test('a module that throws while mounting keeps its fallback; the other islands work', async ({ page, stack }) => {
    // The article's own button gets props its mount function rejects. (Rewriting the attribute
    // while the page parses keeps the real response; a fulfilled document would lose its origin.)
    await page.addInitScript(() => {
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof HTMLElement && node.matches('.article__watchlist[data-island]')) {
              node.setAttribute('data-props', '{"id":42}');
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const problems = watchPage(page);
    await page.goto(new URL(first!.url, stack.url).href);
    await islandsSettled(page);
    const broken = page.locator('.article__watchlist');
    await expect(broken).toHaveAttribute('data-island-state', 'failed');
    await expect(broken.getByRole('button')).toBeDisabled();
    await expect(page.locator('.site-header__watchlist')).toHaveAttribute('data-island-state', 'mounted');
    await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('0');
    expect(problems.errors.some((text) => text.includes('KHS-ISLAND-007 remote "mf-watchlist" failed (stage: hydrate)'))).toBe(true);
  });

  test('only the remotes a page uses are fetched', async ({ page, stack }) => {
    const requestedOrigins = new Set<string>();
    page.on('request', (request) => requestedOrigins.add(new URL(request.url()).origin));
    // The watchlist page has no survey island.
    await page.goto(new URL('/watchlist', stack.url).href);
    await islandsSettled(page);
    const used = await page.evaluate(() => [...new Set([...document.querySelectorAll('[data-island]')].map((el) => el.getAttribute('data-island')!.split('/')[0]))]);
    expect(used).not.toContain('mf-survey');
    expect(requestedOrigins.has(stack.remotes['mf-survey'])).toBe(false);
    for (const remote of used) expect(requestedOrigins.has(stack.remotes[remote as keyof typeof stack.remotes])).toBe(true);
  });

  test('React is downloaded once for all remotes on the page', async ({ page, stack }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    // React islands of two remotes on one page: the watchlist screen (mf-watchlist, at once) and the
    // header search (mf-search, on interaction). (An article's first view loads no React at all:
    // its watchlist controls are bound without it; page-weight-budget.spec checks that.)
    await page.goto(new URL('/watchlist', stack.url).href);
    await islandsSettled(page);
    await wakeInteractionIslands(page);
    // Every remote's manifest lists the chunks of its own copy of each shared package.
    const sharedChunks = new Map<string, Set<string>>();
    for (const origin of Object.values(stack.remotes)) {
      const manifest = (await (await fetch(`${origin}/mf-manifest.json`)).json()) as {
        shared: Array<{ name: string; assets: { js: { sync: string[]; async: string[] } } }>;
      };
      for (const shared of manifest.shared) {
        const set = sharedChunks.get(shared.name) ?? new Set<string>();
        for (const file of [...shared.assets.js.sync, ...shared.assets.js.async]) set.add(`${origin}/${file}`);
        sharedChunks.set(shared.name, set);
      }
    }
    for (const name of ['react', 'react-dom', 'react-dom/client']) {
      const copies = sharedChunks.get(name);
      expect(copies, `${name} is shared`).toBeDefined();
      const downloaded = scripts.filter((url) => copies!.has(url));
      expect(downloaded, `${name} downloads: ${JSON.stringify(downloaded)} of ${JSON.stringify([...copies!])}`).toHaveLength(1);
    }
    expect(await page.evaluate(() => document.querySelectorAll('[data-island-state="mounted"]').length)).toBeGreaterThan(1);
  });
});
