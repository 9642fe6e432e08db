import { getSurvey, listArticles } from '@khs/content';
import type { Page, Request } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

// What goes over the wire for a vote and for a watchlist change, from the browser's own network log:
// the site's calls (`/api/…`, `/actions/…` on the shell's origin), in order.

const surveyArticles = listArticles().filter((article) => article.surveyHandle && getSurvey(article.surveyHandle));
// The last survey article: the survey spec votes on the first ones (the stack is shared per worker).
const voteArticle = surveyArticles.at(-1)!;
const voteSurvey = getSurvey(voteArticle.surveyHandle!)!;
const [first, second] = listArticles() as [ReturnType<typeof listArticles>[0], ReturnType<typeof listArticles>[0]];

/** Records the site's calls the page sends from now on, as `METHOD /path`. */
function recordCalls(page: Page, origin: string): string[] {
  const calls: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.origin === origin && /^\/(api|actions)\//.test(url.pathname) && url.pathname !== '/api/island-failures') calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

test.describe('round trips', () => {
  test('a vote is the page\'s CSRF token and one POST, whose answer is what the widget shows', async ({ page, stack, problems }) => {
    await page.goto(new URL(voteArticle.url, stack.url).href);
    await islandsSettled(page);
    const form = page.locator('.article__survey form.khs-survey');
    await form.scrollIntoViewIfNeeded();
    await expect(form).toHaveAttribute('data-phase', 'answering');
    const calls = recordCalls(page, new URL(stack.url).origin);

    const answer = voteSurvey.answers[0]!;
    await form.getByRole('radio', { name: answer.label, exact: true }).check();
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form).toHaveAttribute('data-phase', 'results');
    await expect(form.getByRole('meter', { name: answer.label, exact: true })).toHaveAttribute('aria-valuenow', /^\d+$/);
    await page.waitForLoadState('networkidle');
    console.log(`vote round trips: ${calls.length} (${calls.join(', ')})`);
    expect(calls).toEqual(['GET /actions/blitz/csrf/token', `POST /api/surveys/${encodeURIComponent(voteSurvey.formHandle)}/submissions`]);
    expect(problems.errors).toEqual([]);
  });

  test('a watchlist change on the watchlist screen drops the item and reloads once, with the token the page already has', async ({ page, stack, problems }) => {
    for (const article of [first, second]) {
      await page.goto(new URL(article.url, stack.url).href);
      await islandsSettled(page);
      await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
      await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
    }
    const calls = recordCalls(page, new URL(stack.url).origin);
    await page.goto(new URL('/watchlist', stack.url).href);
    await islandsSettled(page);
    const screen = page.locator('.khs-watchlist-screen');
    await expect(screen).toHaveAttribute('data-status', 'loaded');
    await page.waitForLoadState('networkidle');
    console.log(`watchlist screen load: ${calls.length} (${calls.join(', ')})`);
    expect(calls).toEqual(['GET /actions/blitz/csrf/token', 'POST /api/watchlist']);
    calls.length = 0;

    const list = page.getByRole('list', { name: 'Your watchlist' });
    await list.getByRole('button', { name: `Remove from watchlist: ${first.title}` }).click();
    await expect(list.getByRole('link', { name: first.title, exact: true })).toHaveCount(0);
    await expect(list.getByRole('link', { name: second.title, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    console.log(`watchlist change round trips: ${calls.length} (${calls.join(', ')})`);
    expect(calls).toEqual(['POST /api/watchlist']);
    expect(problems.errors).toEqual([]);
  });
});
