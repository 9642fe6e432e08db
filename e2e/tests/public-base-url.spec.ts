import { execFile } from 'node:child_process';
import { listArticles } from '@khs/content';
import { WATCHLIST_PDF_FILE_NAME } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { holdPort, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const [first, second] = listArticles() as [ReturnType<typeof listArticles>[0], ReturnType<typeof listArticles>[0]];

function pdfText(file: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('pdftotext', [file, '-'], (error, stdout) => (error ? reject(error) : resolve(stdout.replace(/\s+/g, ' ')))),
  );
}

async function save(page: Page, origin: string, article: typeof first): Promise<void> {
  await page.goto(new URL(article.url, origin).href);
  await islandsSettled(page);
  await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
  await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
}

// The site is visited as http://127.0.0.1:<port>, but PUBLIC_BASE_URL names it http://localhost:<port>
// (the same server under another name, so the shared link can be followed). Every watchlist call
// also carries a forged X-Forwarded-Host: the links must still use the configured base URL.
test.describe('absolute links use the configured base URL', () => {
  let site: Stack;
  let publicBaseUrl: string;
  test.beforeAll(async () => {
    test.setTimeout(STACK_START_TIMEOUT_MS);
    // The port must be known before start (it is in PUBLIC_BASE_URL): held from now on, the shell listens on it.
    const shellPort = await holdPort();
    publicBaseUrl = `http://localhost:${shellPort.port}`;
    site = await startStack({ shellPort, env: { PUBLIC_BASE_URL: publicBaseUrl } });
  });
  test.afterAll(async () => {
    await site?.close();
  });

  test('the shared link and the PDF links point to PUBLIC_BASE_URL, not to the visited or a forged host', async ({ page }) => {
    expect(site.baseUrl).toBe(publicBaseUrl);
    const visited = new URL(site.url).origin;
    expect(visited).not.toBe(publicBaseUrl);
    // Only on the shell's own calls: on cross-origin remote loads an extra header would force a CORS preflight.
    const forwardedHosts: string[] = [];
    await page.route(/\/api\/watchlist(\/pdf)?$/, async (route) => {
      const headers = { ...route.request().headers(), 'x-forwarded-host': 'evil.example' };
      forwardedHosts.push(headers['x-forwarded-host']);
      await route.continue({ headers });
    });

    await save(page, visited, first);
    await save(page, visited, second);
    await page.goto(`${visited}/watchlist`);
    await islandsSettled(page);
    await expect(page.locator('.khs-watchlist-screen')).toHaveAttribute('data-status', 'loaded');

    const sharingUrl = await page.getByLabel('Share your watchlist').inputValue();
    expect(sharingUrl).toMatch(new RegExp(`^${publicBaseUrl}/watchlist/shared/[A-Za-z0-9_-]{22}$`));
    expect(forwardedHosts.length).toBeGreaterThan(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(WATCHLIST_PDF_FILE_NAME);
    const text = await pdfText(await download.path());
    expect(text).toContain(`${publicBaseUrl}${first.url}`);
    expect(text).toContain(`${publicBaseUrl}${second.url}`);
    expect(text).not.toContain('evil.example');
    expect(text).not.toContain(visited);

    // The link works: the same site under its public name shows the shared list.
    await page.goto(sharingUrl);
    await expect(page.getByRole('list', { name: 'Shared articles' }).getByRole('heading')).toHaveText([first.title, second.title]);
  });
});
