import { axeViolations } from '../harness/axe.js';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { listArticles } from '@khs/content';
import { COPY_CONFIRMATION_MS, WATCHLIST_PDF_FILE_NAME } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

const [first, second, third] = listArticles() as [ReturnType<typeof listArticles>[0], ReturnType<typeof listArticles>[0], ReturnType<typeof listArticles>[0]];
const saved = [first, second, third];


/** Text of a PDF file via poppler's `pdftotext`, whitespace collapsed. */
function pdfText(file: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('pdftotext', [file, '-'], (error, stdout) => (error ? reject(error) : resolve(stdout.replace(/\s+/g, ' ')))),
  );
}

async function addFromArticlePage(page: Page, base: string, article: (typeof saved)[number]): Promise<void> {
  await page.goto(new URL(article.url, base).href);
  await islandsSettled(page);
  await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
  await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
}

async function openWatchlist(page: Page, base: string): Promise<void> {
  await page.goto(new URL('/watchlist', base).href);
  await islandsSettled(page);
  await expect(page.locator('.khs-watchlist-screen')).toHaveAttribute('data-status', 'loaded');
}

const savedList = (page: Page) => page.getByRole('list', { name: 'Your watchlist' });
const badge = (page: Page) => page.locator('.site-header .khs-watchlist-link__badge');

test.describe('watchlist screen', () => {
  test('saved articles are resolved by the server, with related articles; removing one updates list and badge', async ({ page, stack, problems }) => {
    for (const article of saved) await addFromArticlePage(page, stack.url, article);
    await openWatchlist(page, stack.url);

    const list = savedList(page);
    await expect(list.getByRole('heading')).toHaveText(saved.map((article) => article.title));
    for (const article of saved) {
      await expect(list.getByRole('link', { name: article.title, exact: true })).toHaveAttribute('href', article.url);
      await expect(list.getByText(article.intro)).toBeVisible();
    }
    const related = page.getByRole('region', { name: 'Related articles' });
    const relatedTitles = await related.getByRole('heading', { level: 3 }).allTextContents();
    expect(relatedTitles.length).toBeGreaterThan(0);
    expect(relatedTitles.length).toBeLessThanOrEqual(6);
    for (const article of saved) expect(relatedTitles).not.toContain(article.title);
    await expect(badge(page)).toHaveText('3');

    await list.getByRole('button', { name: `Remove from watchlist: ${second.title}` }).click();
    await expect(list.getByRole('heading')).toHaveText([first.title, third.title]);
    await expect(badge(page)).toHaveText('2');
    await page.reload();
    await islandsSettled(page);
    await expect(savedList(page).getByRole('heading')).toHaveText([first.title, third.title]);
    // Other remotes are not under test here: only watchlist problems count.
    expect(problems.errors.filter((text) => /watchlist/i.test(text))).toEqual([]);
    expect(problems.failedResponses.filter((text) => /watchlist/i.test(text))).toEqual([]);
  });

  test('the share link is copied with a confirmation, and opens read-only in a fresh browser to import it', async ({ page, stack, browser }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
    await addFromArticlePage(page, stack.url, first);
    await addFromArticlePage(page, stack.url, third);
    await openWatchlist(page, stack.url);

    const sharingUrl = await page.getByLabel('Share your watchlist').inputValue();
    expect(sharingUrl).toMatch(new RegExp(`^${new URL(stack.url).origin}/watchlist/shared/[A-Za-z0-9_-]+$`));
    // The page's clock is paused for the confirmation, so its lifetime is counted in the page's own
    // time and a slow machine cannot stretch it: visible 1 ms before COPY_CONFIRMATION_MS, gone at it.
    // (Installed on the settled page: a fake clock from the start stalls the islands' hydration.)
    await page.clock.install();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.getByRole('button', { name: 'Copy link' }).click();
    const confirmation = page.getByRole('status').filter({ hasText: 'Link copied' });
    await expect(confirmation).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sharingUrl);
    await page.clock.runFor(COPY_CONFIRMATION_MS - 1);
    await expect(confirmation).toBeVisible();
    await page.clock.runFor(1);
    await expect(confirmation).toBeHidden();
    await page.clock.resume();

    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(sharingUrl);
    await islandsSettled(visitorPage);
    const sharedList = visitorPage.getByRole('list', { name: 'Shared articles' });
    await expect(sharedList.getByRole('heading')).toHaveText([first.title, third.title]);
    await expect(sharedList.getByRole('button')).toHaveCount(0);
    await expect(badge(visitorPage)).toHaveText('0');
    await visitorPage.getByRole('button', { name: 'Add these 2 articles to my watchlist' }).click();
    await expect(visitorPage.getByRole('status').filter({ hasText: 'Added 2 articles' })).toBeVisible();
    await expect(badge(visitorPage)).toHaveText('2');
    await openWatchlist(visitorPage, stack.url);
    await expect(savedList(visitorPage).getByRole('heading')).toHaveText([first.title, third.title]);
    await visitor.close();
  });

  test('the PDF download holds every saved title', async ({ page, stack }) => {
    for (const article of saved) await addFromArticlePage(page, stack.url, article);
    await openWatchlist(page, stack.url);
    const downloadButton = page.getByRole('button', { name: 'Download as PDF' });
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    expect(download.suggestedFilename()).toBe(WATCHLIST_PDF_FILE_NAME);
    const file = await download.path();
    expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(file);
    for (const article of saved) expect(text).toContain(article.title);
    await expect(downloadButton).toBeEnabled();
  });

  test('a watchlist call answering 500 leaves the screen loaded and empty', async ({ page, stack }) => {
    await addFromArticlePage(page, stack.url, first);
    await page.route(/\/api\/watchlist$/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' }));
    await openWatchlist(page, stack.url);
    await expect(page.getByText('You have not saved any articles yet.')).toBeVisible();
    await expect(page.locator('.khs-watchlist-screen')).toHaveAttribute('aria-busy', 'false');
  });

  test('a download answering 500 stops the indicator and saves nothing', async ({ page, stack }) => {
    await addFromArticlePage(page, stack.url, first);
    await openWatchlist(page, stack.url);
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/watchlist\/pdf$/, async (route) => {
      await released;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' });
    });
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    const downloadButton = page.getByRole('button', { name: 'Download as PDF' });
    await downloadButton.click();
    const area = page.locator('.khs-watchlist-screen__download');
    await expect(area).toHaveAttribute('aria-busy', 'true');
    await expect(downloadButton).toBeDisabled();
    release();
    await expect(area).toHaveAttribute('aria-busy', 'false');
    await expect(downloadButton).toBeEnabled();
    expect(downloads).toEqual([]);
    await expect.poll(() => errors.some((text) => text.includes('Network response error'))).toBe(true);
  });
});

test.describe('watchlist accessibility', () => {
  test.use({ bypassCSP: true });

  test('the loaded watchlist screen and the shared-watchlist page have no axe-core violations', async ({ page, stack }) => {
    await addFromArticlePage(page, stack.url, first);
    await addFromArticlePage(page, stack.url, second);
    await openWatchlist(page, stack.url);
    expect(await axeViolations(page)).toEqual([]);
    const sharingUrl = await page.getByLabel('Share your watchlist').inputValue();
    await page.goto(sharingUrl);
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);
  });
});
