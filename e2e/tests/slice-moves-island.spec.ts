// Issue 33, item 4: a real slice moves its island to another slot by its manifest alone. In a
// throwaway copy of the checkout, the watchlist team edits `mf-watchlist/slice.json` — its
// WatchlistButton's fill of `article.header.actions` becomes a fill of `article.after-body` — and
// starts the site again as `npm start -- --no-build` does (no build: neither the remote's nor the
// shell's code changed). The article shows the button after its body, server-rendered and working,
// and no longer in its header. The manifest is then put back; the real checkout is never touched.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listArticles } from '@khs/content';
import { expect, test, type Page } from '@playwright/test';
import { islandsSettled } from '../harness/fixtures.js';
import { commitAll, gitIn, startCheckoutSite, type CheckoutSite } from '../harness/checkoutSite.js';
import { REPO_ROOT } from '../harness/stack.js';
import { throwawayCheckout, type ThrowawayCheckout } from '../harness/throwawayCheckout.js';

const MANIFEST = 'mf-watchlist/slice.json';
const BUTTON = '[data-island="mf-watchlist/WatchlistButton"]';
const article = listArticles()[0]!;

let checkout: ThrowawayCheckout | undefined;
let site: CheckoutSite | undefined;

/**
 * Renders not cut short by a busy machine (the first server render of a remote can outlast the
 * default budget, and the page then carries the island's placeholder, as designed): what is
 * asserted is where the island is, not how fast.
 */
const PATIENT_RENDERS = { REMOTE_SERVER_TIMEOUT_MS: '10000', ISLAND_RENDER_BUDGET_MS: '20000' };

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  // A copy of the checkout and a commit of it: seconds on a quiet machine, far more on a busy one.
  test.setTimeout(300_000);
  checkout = throwawayCheckout(REPO_ROOT, 'khs-slice-moves-');
  commitAll(checkout.root);
});

test.afterAll(async () => {
  test.setTimeout(120_000);
  await site?.stop();
  checkout?.remove();
});

/** Starts the copy's site (stopping the one before). */
async function restartSite(): Promise<CheckoutSite> {
  await site?.stop();
  site = undefined;
  site = await startCheckoutSite(checkout!.root, PATIENT_RENDERS);
  return site;
}

/** Where the article page's watchlist button is: in the header, right in the article after its body, both or neither. */
async function buttonPlaces(page: Page): Promise<{ header: number; afterBody: number }> {
  return page.evaluate((selector) => {
    const content = document.querySelector('article.article > .article__content')!;
    const afterBody = [...document.querySelectorAll(`article.article > ${selector}`)].filter((element) => content.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { header: document.querySelectorAll(`.article__header ${selector}`).length, afterBody: afterBody.length };
  }, BUTTON);
}

/** Adds the article to the watchlist with its button and sees the button and the header's count say so. */
async function saveWithButton(page: Page): Promise<void> {
  await page.locator(`article.article ${BUTTON}`).getByRole('button', { name: 'Add to watchlist' }).click();
  await expect(page.locator(`article.article ${BUTTON}`).getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
  await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('1');
}

test("mf-watchlist moves its button from the article header to after the body by editing only its manifest; the manifest put back", async ({ page }) => {
  // Two starts of the whole site: minutes on a busy machine; every wait below is on what the site shows.
  test.setTimeout(1_200_000);
  const root = checkout!.root;
  const original = readFileSync(path.join(root, MANIFEST), 'utf8');
  const manifest = JSON.parse(original) as { remote: { slots: { slot: string; island: string }[] } };
  const fill = manifest.remote.slots.find((entry) => entry.slot === 'article.header.actions' && entry.island === 'WatchlistButton');
  expect(fill, `${MANIFEST} fills article.header.actions with its WatchlistButton`).toBeTruthy();

  // Before: the button in the header.
  const before = await restartSite();
  await page.goto(new URL(article.url, before.url).href);
  await islandsSettled(page);
  expect(await buttonPlaces(page)).toEqual({ header: 1, afterBody: 0 });

  // The team's change: one field of its manifest; then the site is started again (nothing is built).
  fill!.slot = 'article.after-body';
  writeFileSync(path.join(root, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  expect(gitIn(root, ['status', '--porcelain'])).toBe(` M ${MANIFEST}\n`);
  const moved = await restartSite();
  const articleUrl = new URL(article.url, moved.url).href;

  // On the server: rendered by the remote after the body, none in the header (after a start the
  // shell warms the remotes up first, and a page asked for meanwhile has the placeholder).
  await expect
    .poll(
      async () => {
        const html = await (await fetch(articleUrl)).text();
        const headerStart = html.indexOf('<header class="article__header"');
        return {
          inHeader: html.slice(headerStart, html.indexOf('</header>', headerStart)).includes('mf-watchlist/WatchlistButton'),
          renderedAfterBody: /data-island="mf-watchlist\/WatchlistButton"[^>]*>[^]*?Add to watchlist/.test(html.slice(html.indexOf('class="article__content"'))),
        };
      },
      { timeout: 180_000, message: 'the button rendered on the server after the body, not in the header' },
    )
    .toEqual({ inHeader: false, renderedAfterBody: true });

  // In the browser: there, hydrated and working (the header's count follows it).
  await page.goto(articleUrl);
  await islandsSettled(page);
  expect(await buttonPlaces(page)).toEqual({ header: 0, afterBody: 1 });
  await expect(page.locator(`article.article > ${BUTTON}`)).toHaveAttribute('data-island-state', 'mounted');
  await saveWithButton(page);

  // Put back: the copy is as it was.
  writeFileSync(path.join(root, MANIFEST), original);
  expect(gitIn(root, ['status', '--porcelain'])).toBe('');
});
