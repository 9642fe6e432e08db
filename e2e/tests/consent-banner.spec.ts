// The consent banner of a first visit (issue 36): in every page's shared markup, hidden, and shown
// by the shell's runtime when the browser holds no answer (`khs:consent`); the footer's "Cookie
// settings" opens the panel from the runtime's start, not at the widgets' idle enhancement.
import { listArticles } from '@khs/content';
import type { Page, Route } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

const article = listArticles()[0]!;
const CONSENT_STORAGE_KEY = 'khs:consent';

const banner = (page: Page) => page.getByRole('region', { name: 'May we measure how search is used?' });
const storedConsent = (page: Page) => page.evaluate((key) => localStorage.getItem(key), CONSENT_STORAGE_KEY);

/** Holds every request `route` matches until `release()` is called. */
async function hold(page: Page, url: string | RegExp): Promise<() => void> {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route: Route) => {
    await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

test.describe('the consent banner', () => {
  // axe is injected as an inline script, which the site's CSP (rightly) refuses.
  test.use({ bypassCSP: true });

  test('a first visit is asked (nothing ticked, axe-clean); "Allow" is saved and confirmed (axe-clean); the next page asks nothing', async ({ page, stack }) => {
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).getByRole('heading', { level: 2 })).toHaveText('May we measure how search is used?');
    expect(await storedConsent(page)).toBeNull();
    expect(await axeViolations(page)).toEqual([]);

    await banner(page).getByRole('button', { name: 'Allow' }).click();
    expect(JSON.parse((await storedConsent(page))!)).toEqual({ insights: true, tracking: true });
    await expect(banner(page).getByText('Your choice is saved.')).toBeVisible();
    await expect(banner(page).getByRole('button', { name: 'Allow' })).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(new URL('/', stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('#consent-banner')).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('"Refuse" works from the keyboard: saved as no consent, confirmed with the focus on it (axe-clean), hidden with the focus back on the page', async ({ page, stack }) => {
    await page.goto(new URL('/', stack.url).href);
    await islandsSettled(page);
    const refuse = banner(page).getByRole('button', { name: 'Refuse' });
    await refuse.focus();
    await page.keyboard.press('Enter');
    expect(JSON.parse((await storedConsent(page))!)).toEqual({ insights: false, tracking: false });
    const confirmation = banner(page).locator('[data-consent-confirmation]');
    await expect(confirmation).toBeFocused();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Tab');
    await expect(banner(page).getByRole('button', { name: 'Hide this message' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('#consent-banner')).toBeHidden();
    await expect(page.locator('#main')).toBeFocused();
    await page.reload();
    await islandsSettled(page);
    await expect(page.locator('#consent-banner')).toBeHidden();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('"Choose" opens the settings with nothing ticked; what is saved there answers the banner', async ({ page, stack }) => {
    await page.goto(new URL('/', stack.url).href);
    await banner(page).getByRole('button', { name: 'Choose' }).click();
    const panel = page.getByRole('dialog', { name: 'Privacy settings' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('checkbox')).toHaveCount(2);
    for (const box of await panel.getByRole('checkbox').all()) await expect(box).not.toBeChecked();
    await panel.getByRole('checkbox', { name: /Search insights/ }).check();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await expect(panel).toBeHidden();
    expect(JSON.parse((await storedConsent(page))!)).toEqual({ insights: true, tracking: false });
    await expect(banner(page).getByText('Your choice is saved.')).toBeVisible();
  });

  test('without scripts nothing is measured, so nothing is asked', async ({ browser, stack }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL(article.url, stack.url).href);
    await expect(page.locator('#consent-banner')).toBeHidden();
    await context.close();
  });

  test('the page stays shared-cacheable: the same bytes and Cache-Control for a first visitor and one who answered, no cookie set', async ({ page, stack }) => {
    const url = new URL(article.url, stack.url).href;
    const first = await page.goto(url);
    const firstBody = await first!.body();
    const firstHeaders = first!.headers();
    expect(firstHeaders['cache-control']).toBe('public, max-age=0, s-maxage=5, stale-while-revalidate=30, stale-if-error=86400');
    expect(firstHeaders['set-cookie']).toBeUndefined();
    expect(firstBody.toString()).toContain('id="consent-banner"');
    await banner(page).getByRole('button', { name: 'Refuse' }).click();
    // A plain reload revalidates (304 with an unchanged ETag); the answered visitor's full answer is compared.
    const answered = await page.context().request.get(url);
    expect(answered.headers()['cache-control']).toBe(firstHeaders['cache-control']);
    expect(answered.headers()['etag']).toBe(firstHeaders['etag']);
    expect(answered.headers()['set-cookie']).toBeUndefined();
    // It carries whatever cookies the visitor has by now: none of them decides the markup.
    expect((await answered.body()).equals(firstBody)).toBe(true);
  });

  // Every shift counts but one known bug's: the article widgets enhanced late (under load, after
  // this test scrolled them into view) change their blocks' sizes in view. That bug is reproduced
  // and tracked by its own test (widgets.spec.ts, "enhanced after the reader scrolled down…",
  // expected to fail until it is fixed); a shift all of whose sources lie inside the article
  // widgets is left to it, any other shift (the banner's, a header's, an island's) fails here.
  test('showing the banner shifts nothing (CLS 0 outside the article widgets\' late enhancement), and at the end of the page it covers nothing', async ({ page, stack }) => {
    await page.addInitScript(() => {
      const shifts: Array<{ value: number; sources: string[] }> = [];
      (window as unknown as { khsShifts: typeof shifts }).khsShifts = shifts;
      const inArticleWidgets = (node: Node | undefined) => node instanceof Element && node.closest('[data-island="mf-widgets/ArticleWidgets"]') !== null;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }>) {
          const sources = entry.sources ?? [];
          if (entry.hadRecentInput || (sources.length > 0 && sources.every((source) => inArticleWidgets(source.node)))) continue;
          shifts.push({ value: entry.value, sources: sources.map((source) => (source.node instanceof Element ? `${source.node.tagName}.${source.node.className}` : String(source.node?.nodeName))) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    for (const path of ['/', article.url]) {
      await page.goto(new URL(path, stack.url).href);
      await expect(banner(page)).toBeVisible();
      await islandsSettled(page);
      // Two frames after everything settled: a shift the banner caused would be recorded by now.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const shifts = await page.evaluate(() => (window as unknown as { khsShifts: Array<{ value: number; sources: string[] }> }).khsShifts);
      expect(shifts, `${path}: ${JSON.stringify(shifts)}`).toEqual([]);
    }
    // At the foot of the page the banner sits after the footer: "Cookie settings" and "Contact" stay reachable.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const footer = await page.locator('.site-footer').boundingBox();
    const bannerBox = await banner(page).boundingBox();
    expect(footer!.y + footer!.height).toBeLessThanOrEqual(bannerBox!.y);
  });

  test('an early click on "Cookie settings" opens the settings: before the widgets are enhanced, and even before the runtime ran', async ({ page, stack }) => {
    // The widgets' remote is held (its manifest and scripts; its styles pass): its enhancement, the link's old handler, cannot run.
    const widgetsOrigin = stack.remotes['mf-widgets'].replace(/\/$/, '').replace(/[.]/g, '\\.');
    const releaseWidgets = await hold(page, new RegExp(`^${widgetsOrigin}/.*(mf-manifest\\.json|\\.js)(\\?.*)?$`));
    await page.goto(new URL(article.url, stack.url).href, { waitUntil: 'domcontentloaded' });
    await expect(banner(page)).toBeVisible(); // the runtime runs
    await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).not.toHaveAttribute('data-island-state', 'mounted');
    await page.locator('.site-footer').getByRole('link', { name: 'Cookie settings' }).click();
    const panel = page.getByRole('dialog', { name: 'Privacy settings' });
    await expect(panel).toBeVisible();
    expect(new URL(page.url()).hash).toBe('');
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    releaseWidgets();

    // The shell's own scripts held: the click only leaves #cookie-banner in the address; the runtime opens the settings when it comes.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    const releaseRuntime = await hold(page, /\/assets\/.*\.js(\?.*)?$/);
    // Not "domcontentloaded": that waits for the held runtime (a deferred script).
    await page.goto(new URL('/', stack.url).href, { waitUntil: 'commit' });
    await page.locator('.site-footer').getByRole('link', { name: 'Cookie settings' }).click();
    await expect(page).toHaveURL(/#cookie-banner$/);
    await expect(panel).toBeHidden();
    releaseRuntime();
    await expect(panel).toBeVisible();
  });
});
