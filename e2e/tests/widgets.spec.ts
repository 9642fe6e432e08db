import { axeViolations } from '../harness/axe.js';
import { listArticles } from '@khs/content';
import { DIALOG_CLOSE_DELAY_MS, HEADER_SCROLLED_THRESHOLD_PX, TABLE_SCROLL_STEP_PX } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

const articles = listArticles();
const withGallery = articles.find((article) => (article.gallery?.length ?? 0) >= 2)!;

/** Opens an article page and waits until mf-widgets has enhanced it. */
async function openArticle(page: Page, base: string, article = withGallery): Promise<void> {
  await page.goto(new URL(article.url, base).href);
  await islandsSettled(page);
  await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).toHaveAttribute('data-island-state', 'mounted');
}

const scrollTo = (page: Page, y: number) =>
  page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        window.scrollTo({ top, behavior: 'instant' });
        // Two frames: the scroll event and the widgets' per-frame updates have run.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
    y,
  );

test.describe('page widgets (mf-widgets)', () => {
  test('the header is scrolled only after 20px of scroll', async ({ page, stack, problems }) => {
    await openArticle(page, stack.url);
    const header = page.locator('[data-site-header]');
    await scrollTo(page, HEADER_SCROLLED_THRESHOLD_PX);
    await expect(header).not.toHaveClass(/is-scrolled/);
    await scrollTo(page, HEADER_SCROLLED_THRESHOLD_PX + 1);
    await expect(header).toHaveClass(/is-scrolled/);
    await scrollTo(page, 0);
    await expect(header).not.toHaveClass(/is-scrolled/);
    // Failed resources are listed in failedResponses (the favicon is left out there, not in the console).
    expect(problems.failedResponses).toEqual([]);
    expect(problems.errors.filter((text) => !text.startsWith('Failed to load resource'))).toEqual([]);
  });

  test('a dialog opens from its trigger, traps focus, closes on Escape after the delay and returns focus', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const trigger = page.getByRole('button', { name: 'Cite this article' });
    const dialog = page.getByRole('dialog', { name: 'Cite this article' });
    await expect(dialog).toBeHidden();
    await trigger.click();
    await expect(dialog).toBeVisible();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    // Tab cycles inside: close button, the link, then back to the close button.
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('link', { name: 'Open the article in a new tab' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('link', { name: 'Open the article in a new tab' })).toBeFocused();

    const closedAfter = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const element = document.getElementById('article-cite')!;
          const start = performance.now();
          new MutationObserver(() => {
            if (element.hidden) resolve(performance.now() - start);
          }).observe(element, { attributes: true, attributeFilter: ['hidden'] });
        }),
    );
    await page.keyboard.press('Escape');
    expect(await closedAfter).toBeGreaterThanOrEqual(DIALOG_CLOSE_DELAY_MS - 20);
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');
  });

  test('the navigation dialog closes with its close button and when a link is followed', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const trigger = page.getByRole('button', { name: 'In this article' });
    const dialog = page.getByRole('dialog', { name: 'In this article' });
    await trigger.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await trigger.click();
    await dialog.getByRole('link', { name: 'At a glance' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/#article-at-a-glance$/);
    await expect(page.locator('#article-at-a-glance')).toBeFocused();
  });

  test('tabs follow the WAI-ARIA keyboard pattern: arrows wrap, Home, End', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const tablist = page.getByRole('tablist', { name: 'Key takeaways' });
    const tab = (name: string) => tablist.getByRole('tab', { name });
    await tab('Summary').click();
    await expect(tab('Summary')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Summary' })).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Key points')).toBeFocused();
    await expect(tab('Key points')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Key points' })).toBeVisible();
    await expect(page.getByRole('tabpanel', { name: 'Summary' })).toBeHidden();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(tab('Summary')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tab('Next steps')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(tab('Summary')).toBeFocused();
    await page.keyboard.press('End');
    await expect(tab('Next steps')).toBeFocused();
    // Tab leaves the tab list for the selected panel.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tabpanel', { name: 'Next steps' })).toBeFocused();
  });

  test('the gallery lightbox opens at the picture, moves with the keyboard, and Escape returns focus', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const gallery = withGallery.gallery!;
    const links = page.locator('[data-widget="gallery"] [data-lightbox-item]');
    await page.getByRole('button', { name: 'Next image' }).first().click();
    await expect(page.locator('[data-widget="gallery"] [data-slider-status]')).toHaveText(`Image 2 of ${gallery.length}`);
    await links.nth(1).focus();
    await page.keyboard.press('Enter');
    const lightbox = page.getByRole('dialog', { name: 'Gallery: image viewer' });
    await expect(lightbox).toBeVisible();
    await expect(lightbox.locator('.khs-widgets-lightbox__status')).toHaveText(`Image 2 of ${gallery.length}`);
    await expect(lightbox.getByText(gallery[1]!.caption)).toBeVisible();
    await expect(lightbox.getByRole('img', { name: gallery[1]!.alt })).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    await expect(lightbox.locator('.khs-widgets-lightbox__status')).toHaveText(`Image 1 of ${gallery.length}`);
    await expect(lightbox.getByText(gallery[0]!.caption)).toBeVisible();
    await page.keyboard.press('End');
    await expect(lightbox.locator('.khs-widgets-lightbox__status')).toHaveText(`Image ${gallery.length} of ${gallery.length}`);
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
    await expect(links.nth(1)).toBeFocused();
  });

  test('a swipe on the gallery changes the picture and does not open the lightbox', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const viewport = page.locator('[data-widget="gallery"] [data-slider-viewport]');
    await viewport.scrollIntoViewIfNeeded();
    const box = (await viewport.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    for (let step = 1; step <= 10; step += 1) await page.mouse.move(box.x + box.width * (0.8 - step * 0.05), y);
    await page.mouse.up();
    await expect(page.locator('[data-widget="gallery"] [data-slider-status]')).toHaveText(/^Image 2 of \d+$/);
    await expect(page.locator('.khs-widgets-lightbox')).toHaveCount(0);
  });

  test('the competence slider shows one slide below 960px and two from 960px', async ({ page, stack }) => {
    await page.setViewportSize({ width: 959, height: 800 });
    await openArticle(page, stack.url);
    const slider = page.locator('[data-widget="competence-slider"]');
    const visibleSlideWidths = () =>
      slider.evaluate((root) => {
        const viewport = root.querySelector('[data-slider-viewport]')!.getBoundingClientRect();
        return [...root.querySelectorAll('[data-slider-slide]')]
          .map((slide) => slide.getBoundingClientRect())
          .filter((rect) => rect.left >= viewport.left - 1 && rect.right <= viewport.right + 1)
          .map((rect) => Math.round(rect.width));
      });
    await expect(slider).toHaveAttribute('data-per-view', '1');
    expect(await visibleSlideWidths()).toHaveLength(1);
    await page.setViewportSize({ width: 960, height: 800 });
    await expect(slider).toHaveAttribute('data-per-view', '2');
    await expect.poll(visibleSlideWidths).toHaveLength(2);
    await expect(slider.locator('[data-slider-status]')).toHaveText(/Slides 1 to 2 of \d+/);
    await page.setViewportSize({ width: 959, height: 800 });
    await expect(slider).toHaveAttribute('data-per-view', '1');
  });

  test('the reading-progress bar grows with the scroll and hides at 100%', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const progress = page.locator('[data-reading-progress]');
    await scrollTo(page, 0);
    await expect(progress).not.toHaveClass(/is-complete/);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await scrollTo(page, Math.round(height / 3));
    const scale = await progress.locator('.reading-progress__bar').evaluate((bar) => new DOMMatrix(getComputedStyle(bar).transform).a);
    expect(scale).toBeGreaterThan(0);
    expect(scale).toBeLessThan(1);
    await scrollTo(page, height);
    await expect(progress).toHaveClass(/is-complete/);
    await expect(progress).toBeHidden();
  });

  test('the table buttons scroll by 100px and are disabled at the ends', async ({ page, stack }) => {
    await page.setViewportSize({ width: 700, height: 800 });
    await openArticle(page, stack.url);
    const table = page.locator('[data-widget="scroll-table"]');
    const viewport = table.locator('[data-scroll-viewport]');
    const prev = table.locator('[data-scroll-prev]');
    const next = table.locator('[data-scroll-next]');
    await table.scrollIntoViewIfNeeded();
    await expect(prev).toBeDisabled();
    await expect(next).toBeEnabled();
    await next.click();
    await expect.poll(() => viewport.evaluate((element) => element.scrollLeft)).toBe(TABLE_SCROLL_STEP_PX);
    await expect(prev).toBeEnabled();
    // Press until the end; a plain DOM click, because the button may turn disabled between a
    // check and Playwright's auto-waiting click.
    await expect
      .poll(async () => {
        await next.evaluate((button) => (button as HTMLButtonElement).click());
        return next.isDisabled();
      }, { timeout: 20_000 })
      .toBe(true);
    expect(await viewport.evaluate((element) => Math.ceil(element.scrollLeft + element.clientWidth) >= element.scrollWidth - 1)).toBe(true);
    await prev.click();
    await expect(next).toBeEnabled();
    await viewport.evaluate((element) => element.scrollTo({ left: 0, behavior: 'instant' }));
    await expect(prev).toBeDisabled();
  });

  test('links that open a new tab get noopener; the cookie link opens the consent panel', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    await expect(page.locator('a[target="_blank"]').first()).toHaveAttribute('rel', /\bnoopener\b/);
    // A link added later is fixed too.
    await page.evaluate(() => {
      const link = Object.assign(document.createElement('a'), { href: '/', target: '_blank', textContent: 'late', id: 'late-link' });
      document.querySelector('main')!.append(link);
    });
    await expect(page.locator('#late-link')).toHaveAttribute('rel', 'noopener');
    await page.locator('.site-footer a[href="#cookie-banner"]').click();
    await expect(page.locator('#cookie-banner')).toBeVisible();
    expect(new URL(page.url()).hash).toBe('');
  });

  test('the video poster has a play button that starts the video', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const video = page.locator('[data-widget="video"]');
    const play = video.getByRole('button', { name: /Play video/ });
    await expect(play).toBeVisible();
    await play.click();
    await expect(play).toBeHidden();
    await expect(video.locator('video')).toHaveAttribute('controls', '');
    // The intro video really plays: time advances and it is not paused.
    await expect
      .poll(() => video.locator('video').evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0.2))
      .toBe(true);
  });

});

test.describe('page widgets before and beyond the first mount', () => {
  // Issue 34 (consent-banner.spec.ts "CLS 0" failed under load with a shift of 0.14 from
  // `DIV.` and `FIGURE.khs-widgets-video is-enhanced`). The cause, reproduced here without any
  // clock: mf-widgets enhances the article's widgets (its content widgets load at idle, in a chunk
  // of their own) after the reader scrolled down to them — as `islandsSettled` does, scrolling
  // the `visible` ArticleWidgets island into view; on a busy machine the enhancement comes after
  // that. The tabs collapse from every panel to one (−326 px), the table's and the slider's
  // controls appear (+52, +76 px): the blocks in view move (0.1428 here, the same sources). Not
  // fixed yet: Chrome's scroll anchoring moves the view by 274 px and still records the shift, and
  // a scroll in the same task by what moved the element at the top of the view (tried) leaves the
  // same 0.1428. Expected to fail until the enhancement keeps the server markup's geometry.
  test('enhanced after the reader scrolled down to the article widgets, they shift nothing in view', async ({ page, stack }) => {
    test.fail(true, 'issue 34: the late enhancement of the article widgets shifts what the reader sees (cause in the comment above)');
    await page.addInitScript(() => {
      const shifts: Array<{ value: number; sources: string[] }> = [];
      (window as unknown as { khsShifts: typeof shifts }).khsShifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node }> }>) {
          if (!entry.hadRecentInput) shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((source) => (source.node instanceof Element ? `${source.node.tagName}#${source.node.id}.${source.node.className}` : String(source.node?.nodeName))) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The widgets' remote held (manifest and scripts; its styles pass): nothing is enhanced yet.
    let release = (): void => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const widgetsOrigin = stack.remotes['mf-widgets'].replace(/\/$/, '').replace(/[.]/g, '\\.');
    await page.route(new RegExp(`^${widgetsOrigin}/.*(mf-manifest\\.json|\\.js)(\\?.*)?$`), async (route) => {
      await released;
      await route.continue().catch(() => undefined);
    });
    await page.goto(new URL(articles[0]!.url, stack.url).href);
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          document.querySelector('[data-island="mf-widgets/ArticleWidgets"]')!.scrollIntoView({ block: 'center' });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        }),
    );
    const before = await page.evaluate(() => (window as unknown as { khsShifts: unknown[] }).khsShifts.length);
    release();
    await expect(page.getByRole('tablist', { name: 'Key takeaways' })).toHaveCount(1);
    await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).toHaveAttribute('data-island-state', 'mounted');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const shifts = await page.evaluate(() => (window as unknown as { khsShifts: unknown[] }).khsShifts);
    expect(shifts.slice(before), JSON.stringify(shifts)).toEqual([]);
  });

  test('without scripts every widget reads as plain content', async ({ browser, stack }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL(withGallery.url, stack.url).href);
    for (const label of ['Summary', 'Key points', 'Next steps']) {
      await expect(page.locator('[data-widget="tabs"]').getByRole('heading', { name: label })).toBeVisible();
    }
    for (const picture of withGallery.gallery!) await expect(page.getByText(picture.caption)).toBeAttached();
    await expect(page.getByRole('heading', { name: 'Cite this article' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'The article at a glance' })).toBeVisible();
    await expect(page.locator('[data-scroll-controls]').first()).toBeHidden();
    await expect(page.locator('[data-widget="video"] video')).toHaveAttribute('controls', '');
    await context.close();
  });

  test('a widget added after the mount is enhanced once; a broken one is skipped with one warning', async ({ page, stack }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' && message.text().includes('[mf-widgets]')) warnings.push(message.text());
    });
    await openArticle(page, stack.url);
    await page.evaluate(() => {
      const block = document.createElement('div');
      block.innerHTML = `
        <div data-widget="tabs" data-tabs-name="Late tabs" id="late-tabs">
          <section data-tabs-panel><h3 data-tabs-label>First</h3><p>one</p></section>
          <section data-tabs-panel><h3 data-tabs-label>Second</h3><p>two</p></section>
        </div>
        <div data-widget="tabs" id="broken-tabs"><section data-tabs-panel><p>no heading</p></section></div>`;
      document.querySelector('main')!.append(block);
    });
    await expect(page.getByRole('tablist', { name: 'Late tabs' })).toHaveCount(1);
    await page.evaluate(() => document.querySelector('main')!.append(document.createElement('p')));
    await expect(page.getByRole('tablist', { name: 'Late tabs' }).getByRole('tab')).toHaveCount(2);
    await expect.poll(() => warnings.length).toBe(1);
    expect(warnings[0]).toContain('tabs skipped');
    await expect(page.getByRole('tablist', { name: 'Key takeaways' })).toHaveCount(1);
  });
});

test.describe('reduced motion', () => {
  test('dialogs close at once and slides move without animation', async ({ page, stack }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openArticle(page, stack.url);
    await page.getByRole('button', { name: 'Cite this article' }).click();
    await expect(page.getByRole('dialog', { name: 'Cite this article' })).toBeVisible();
    const hiddenRightAfterEscape = await page.evaluate(() => {
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
      return document.getElementById('article-cite')!.hidden;
    });
    expect(hiddenRightAfterEscape).toBe(true);
    await page.getByRole('button', { name: 'Next competences' }).click();
    const slider = page.locator('[data-widget="competence-slider"]');
    expect(await slider.evaluate((element) => getComputedStyle(element.querySelector('[data-slider-track]')!).transitionDuration)).toBe('0s');
  });
});

test.describe('contact page widgets', () => {
  test('password toggle names its state; the file field shows the chosen name; the privacy dialog opens', async ({ page, stack }) => {
    const response = await page.goto(new URL('/contact', stack.url).href);
    expect(response?.status()).toBe(200);
    await islandsSettled(page);
    const password = page.getByLabel('Request password (optional)');
    await password.fill('correct horse');
    const toggle = page.getByRole('button', { name: 'Show password' });
    await toggle.click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(page.getByRole('button', { name: 'Hide password' })).toBeFocused();
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await expect(page.locator('[data-file-name]')).toHaveText('No file chosen');
    await page.getByLabel('Attach a file (optional)').setInputFiles({ name: 'my-question.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect(page.locator('[data-file-name]')).toHaveText('my-question.pdf');

    const trigger = page.getByRole('button', { name: 'privacy notice' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Privacy notice' });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });
});

test.describe('page widgets accessibility', () => {
  // axe is injected as an inline script, which the site's CSP (rightly) refuses.
  test.use({ bypassCSP: true });

  test('the article page with every widget has no axe-core violations', async ({ page, stack }) => {
    await openArticle(page, stack.url);
    const violations = await axeViolations(page);
    expect(violations).toEqual([]);
  });
});
