import { getSurvey, listArticles } from '@khs/content';
import type { Page } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

const articles = listArticles();
const surveyArticles = articles.filter((article) => article.surveyHandle && getSurvey(article.surveyHandle));
const surveyArticle = surveyArticles[0]!;
// survey.spec.ts counts the votes of the first two surveys on the worker's shared stack: vote on a third.
const [firstSurvey, secondSurvey] = [...new Set(surveyArticles.map((article) => article.surveyHandle))];
const votedSurveyArticle = surveyArticles.find((article) => article.surveyHandle !== firstSurvey && article.surveyHandle !== secondSurvey)!;

/** Opens a page of the site and waits until every island mounted or gave up. */
async function open(page: Page, base: string, path: string): Promise<void> {
  await page.goto(new URL(path, base).href);
  await islandsSettled(page);
}

async function saveArticle(page: Page, base: string, url: string): Promise<void> {
  await open(page, base, url);
  await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
  await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
}

test.describe('the axe helper', () => {
  test('counts a contrast axe leaves "incomplete" as a failure when the measured ratio is below 3:1', async ({ page }) => {
    // axe cannot tell invisible text from hidden text at 1:1, nor text over a pseudo-element's
    // background, so it reports both as "incomplete", not as violations.
    await page.setContent(`<!doctype html><html lang="en"><head><title>probe</title><style>
      .pill { position: relative; padding: 0.5rem; }
      .pill::before { content: ''; position: absolute; inset: 0; z-index: -1; background: #fff; }
      </style></head><body><main><h1>Probe</h1>
      <button id="invisible" style="color:#fff;background:#fff;border:1px solid #333">Invisible tag</button>
      <p id="readable-over-pseudo" class="pill" style="color:#595959">Readable text over a pseudo-element</p>
      <p id="pale-over-pseudo" class="pill" style="color:#c8c8c8">Pale text over a pseudo-element</p>
      <p id="over-gradient" style="color:#333;background:linear-gradient(#fff,#eee)">Text over a gradient (not measurable)</p>
      </main></body></html>`);
    const problems = await axeViolations(page);
    expect(problems).toEqual([
      expect.stringMatching(/^color-contrast-incomplete: \["#invisible"\] \(1\.00:1, #ffffff on #ffffff\)$/),
      expect.stringMatching(/^color-contrast-incomplete: \["#pale-over-pseudo"\] \(1\.67:1, #c8c8c8 on #ffffff\)$/),
    ]);
    // The readable one (7:1) and the unmeasurable one were "incomplete" too, and rightly not counted.
    const incomplete = await page.evaluate(async () => {
      type Result = { incomplete: { id: string; nodes: { target: string[] }[] }[] };
      const axe = (window as unknown as { axe: { run(context: Document): Promise<Result> } }).axe;
      const result = await axe.run(document);
      return result.incomplete.filter((entry) => entry.id === 'color-contrast').flatMap((entry) => entry.nodes.map((node) => node.target[0]));
    });
    expect(incomplete.sort()).toEqual(['#invisible', '#over-gradient', '#pale-over-pseudo', '#readable-over-pseudo']);
  });
});

// Every page state of the site; the contact form's states are in contact.spec.ts.
test.describe('every page state is axe-core clean', () => {
  // axe is injected as an inline script, which the site's CSP (rightly) refuses.
  test.use({ bypassCSP: true });

  test('home', async ({ page, stack }) => {
    await open(page, stack.url, '/');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('search idle, with its suggestion tags', async ({ page, stack }) => {
    await open(page, stack.url, '/search');
    const tags = page.getByRole('list', { name: 'Popular topics' }).getByRole('button');
    await expect(tags).toHaveCount(5);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('search with results', async ({ page, stack }) => {
    await open(page, stack.url, '/search?q=feedback');
    await expect(page.locator('.khs-search-teaser').first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('search with open filters and an applied filter', async ({ page, stack }) => {
    await open(page, stack.url, '/search?q=feedback');
    await expect(page.locator('.khs-search-teaser').first()).toBeVisible();
    const filter = page.getByRole('button', { name: /Filter/ });
    if ((await filter.getAttribute('aria-expanded')) === 'false') await filter.click();
    await expect(filter).toHaveAttribute('aria-expanded', 'true');
    await page.locator('main input[type="checkbox"]').first().check();
    await expect(page.locator('main input[type="checkbox"]:checked')).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('header autocomplete open', async ({ page, stack }) => {
    await open(page, stack.url, '/');
    const box = page.getByRole('combobox').first();
    await box.click();
    await box.pressSequentially(articles[0]!.title.split(' ')[0]!.slice(0, 5));
    await expect(page.getByRole('listbox').first()).toBeVisible();
    await box.press('ArrowDown');
    await expect(page.getByRole('option', { selected: true })).toHaveCount(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('search page autocomplete open', async ({ page, stack }) => {
    await open(page, stack.url, '/search');
    const box = page.locator('main').getByRole('combobox');
    await box.click();
    await box.pressSequentially(articles[0]!.title.split(' ')[0]!.slice(0, 5));
    await expect(page.locator('main').getByRole('listbox')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('watchlist empty', async ({ page, stack }) => {
    await open(page, stack.url, '/watchlist');
    await expect(page.locator('.khs-watchlist-screen')).toHaveAttribute('data-status', 'loaded');
    await expect(page.locator('.khs-watchlist-screen__empty')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('watchlist filled, with related articles', async ({ page, stack }) => {
    await saveArticle(page, stack.url, articles[0]!.url);
    await saveArticle(page, stack.url, articles[1]!.url);
    await open(page, stack.url, '/watchlist');
    await expect(page.locator('.khs-watchlist-screen')).toHaveAttribute('data-status', 'loaded');
    await expect(page.getByRole('region', { name: 'Related articles' })).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('article with its widgets, watchlist button and survey', async ({ page, stack }) => {
    await open(page, stack.url, surveyArticle.url);
    await expect(page.locator('[data-island="mf-widgets/PageWidgets"]')).toHaveAttribute('data-island-state', 'mounted');
    await expect(page.locator('.article__survey form.khs-survey')).toHaveAttribute('data-phase', 'answering');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('survey voted, with its results', async ({ page, stack }) => {
    await open(page, stack.url, votedSurveyArticle.url);
    const form = page.locator('.article__survey form.khs-survey');
    await form.getByRole('radio').first().check();
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form).toHaveAttribute('data-phase', 'results');
    await expect(form.getByRole('meter').first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the 404 page', async ({ page, stack }) => {
    await open(page, stack.url, '/articles/nothing-here');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('the consent panel', async ({ page, stack }) => {
    await open(page, stack.url, '/');
    await page.locator('.site-footer a[href="#cookie-banner"]').click();
    await expect(page.locator('#cookie-banner')).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });
});
