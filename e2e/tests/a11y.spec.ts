import { listArticles } from '@khs/content';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

// Pages whose own specs do not already run axe (article, watchlist, shared list, contact do).
test.describe('every page is axe-core clean', () => {
  test.use({ bypassCSP: true });

  test('home', async ({ page, stack }) => {
    await page.goto(stack.url);
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('search with results, open filters and an applied filter', async ({ page, stack }) => {
    await page.goto(new URL('/search?q=feedback', stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('main').getByRole('link', { name: /./ }).first()).toBeVisible();
    const filter = page.getByRole('button', { name: /Filter/ });
    if ((await filter.getAttribute('aria-expanded')) === 'false') await filter.click();
    await page.locator('main input[type="checkbox"]').first().check();
    await expect(page.locator('main input[type="checkbox"]:checked')).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('header autocomplete open', async ({ page, stack }) => {
    await page.goto(stack.url);
    await islandsSettled(page);
    const box = page.getByRole('combobox').first();
    await box.click();
    await box.pressSequentially(listArticles()[0]!.title.split(' ')[0]!.slice(0, 5));
    await expect(page.getByRole('listbox').first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the 404 page', async ({ page, stack }) => {
    await page.goto(new URL('/articles/nothing-here', stack.url).href);
    await islandsSettled(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the consent panel', async ({ page, stack }) => {
    await page.goto(stack.url);
    await islandsSettled(page);
    await page.locator('.site-footer a[href="#cookie-banner"]').click();
    await expect(page.locator('#cookie-banner')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
