// The watchlist is its own service (mf-watchlist/server) behind the shell's proxy. Stopped, it must
// take nothing else down: articles read, the watchlist button (kept in the browser) and the survey
// (another service) work, the watchlist screen settles instead of hanging, a shared link gets a
// readable page; restarted, the same shell serves it again.
import { getSurvey, listArticles } from '@khs/content';
import type { Page } from '@playwright/test';
import { WATCHLIST_STORAGE_KEY } from 'contracts';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

// An article with a survey no other spec votes on (survey.spec takes the first two, survey-service.spec the last).
const surveyArticles = listArticles()
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const article = surveyArticles.at(-2)!;
const survey = getSurvey(article.surveyHandle!)!;
const [answer] = survey.answers as [(typeof survey.answers)[0]];

const watchlistScreen = (page: Page) => page.locator('.khs-watchlist-screen');

test('a stopped watchlist service: the article, its watchlist button and its survey work; the screen settles; a shared link gets a readable page; restarted, the list resolves again', async ({ page, stack }) => {
  // A shared link made while the service runs.
  await page.goto(new URL(article.url, stack.url).href);
  await islandsSettled(page);
  await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
  await page.goto(new URL('/watchlist', stack.url).href);
  await islandsSettled(page);
  await expect(watchlistScreen(page)).toHaveAttribute('data-status', 'loaded');
  await expect(page.getByRole('list', { name: 'Your watchlist' }).getByRole('heading')).toHaveText([article.title]);
  // The sharing URL the screen's own call answered (the screen shows it behind its copy button).
  const sharingUrl = await page.evaluate(async (storageKey) => {
    const token = await (await fetch('/actions/blitz/csrf/token')).text();
    const list = JSON.parse(localStorage.getItem(storageKey) ?? '{}');
    const response = await fetch('/api/watchlist', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ storedWatchlist: { articles: list.articles ?? {} } }) });
    return ((await response.json()) as { storedWatchlist: { sharingUrl: string } }).storedWatchlist.sharingUrl;
  }, WATCHLIST_STORAGE_KEY);
  expect(sharingUrl).toMatch(/\/watchlist\/shared\/[A-Za-z0-9_-]{22}$/);

  await stack.stopService('watchlist');
  try {
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(article.headline || article.title);
    await expect(page.locator('.article__intro')).toHaveText(article.intro);
    // The button lives in the browser: removing and adding again works without the service.
    const button = page.locator('.article__watchlist').getByRole('button');
    await expect(button).toHaveAccessibleName('Remove from watchlist');
    await button.click();
    await expect(button).toHaveAccessibleName('Add to watchlist');
    await button.click();
    await expect(button).toHaveAccessibleName('Remove from watchlist');
    await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('1');
    // Another team's service still answers: the survey votes.
    const form = page.locator('.article__survey form.khs-survey');
    await form.getByRole('radio', { name: answer.label, exact: true }).check();
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form).toHaveAttribute('data-phase', 'results');

    // The watchlist screen gets a 503 JSON and settles (no endless spinner).
    const failed = page.waitForResponse((response) => response.url().endsWith('/api/watchlist'));
    await page.goto(new URL('/watchlist', stack.url).href);
    expect((await failed).status()).toBe(503);
    await islandsSettled(page);
    await expect(watchlistScreen(page)).toHaveAttribute('aria-busy', 'false');

    // A shared link: a readable page that says so, in the site layout.
    const shared = await page.goto(sharingUrl);
    expect(shared?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shared watchlist');
    await expect(page.getByText('cannot be shown right now')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  } finally {
    await stack.startService('watchlist');
  }

  // Back, with the same shell: the list resolves and the shared link opens.
  await page.goto(new URL('/watchlist', stack.url).href);
  await islandsSettled(page);
  await expect(watchlistScreen(page)).toHaveAttribute('data-status', 'loaded');
  await expect(page.getByRole('list', { name: 'Your watchlist' }).getByRole('heading')).toHaveText([article.title]);
  await page.goto(sharingUrl);
  await expect(page.getByRole('list', { name: 'Shared articles' }).getByRole('heading')).toHaveText([article.title]);
});
