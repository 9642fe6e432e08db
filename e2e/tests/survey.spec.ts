import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getSurvey, listArticles } from '@khs/content';
import type { Locator, Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { REPO_ROOT } from '../harness/stack.js';

// Two articles with different surveys: each test votes on its own survey (the stack is shared per worker).
const surveyArticles = listArticles()
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const [flowArticle, keyboardArticle] = surveyArticles as [(typeof surveyArticles)[0], (typeof surveyArticles)[0]];
const flowSurvey = getSurvey(flowArticle.surveyHandle!)!;
const keyboardSurvey = getSurvey(keyboardArticle.surveyHandle!)!;
// A survey whose allowance for this machine's address is used up on purpose: none another spec votes on
// (survey.spec the first two, edge-bodies the fourth, survey-service the last, round-trips the last article's).
const votedElsewhere = new Set([
  ...[0, 1, Math.min(3, surveyArticles.length - 2), surveyArticles.length - 1].map((index) => surveyArticles[index]!.surveyHandle),
  listArticles().filter((article) => article.surveyHandle && getSurvey(article.surveyHandle)).at(-1)!.surveyHandle,
]);
const limitedArticle = surveyArticles.find((article) => !votedElsewhere.has(article.surveyHandle))!;
const limitedSurvey = getSurvey(limitedArticle.surveyHandle!)!;

/** The most votes one address may send at once on a survey: the shortest sliding window the survey service declares. */
function voteBurst(): number {
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'mf-survey/slice.json'), 'utf8')) as {
    service: { edgePolicy: { routes: Array<{ call: string; rateLimit?: { windows?: Array<{ max: number; windowMs: number }> } }> } };
  };
  const policy = manifest.service.edgePolicy;
  const windows = policy.routes.find((route) => route.call === 'surveySubmit')!.rateLimit!.windows!;
  return [...windows].sort((a, b) => a.windowMs - b.windowMs)[0]!.max;
}

/** One vote as a script sends it from this machine's address: fresh cookies (a new voter), a token, the POST. */
async function scriptVote(base: string, formHandle: string, answerPosition: number): Promise<number> {
  const tokenResponse = await fetch(new URL('/actions/blitz/csrf/token', base));
  const cookie = /(_csrf=[^;]+)/.exec(tokenResponse.headers.get('set-cookie') ?? '')![1]!;
  const vote = await fetch(new URL(`/api/surveys/${encodeURIComponent(formHandle)}/submissions`, base), {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': await tokenResponse.text(), 'content-type': 'application/json' },
    body: JSON.stringify({ answerPosition }),
  });
  await vote.arrayBuffer();
  return vote.status;
}

const surveyForm = (page: Page) => page.locator('.article__survey form.khs-survey');

async function openArticle(page: Page, base: string, url: string): Promise<Locator> {
  await page.goto(new URL(url, base).href);
  await islandsSettled(page);
  const form = surveyForm(page);
  await expect(form).toHaveAttribute('data-phase', /answering|loadingResults|results/);
  return form;
}

/** Percentage of each answer label, read from the meters' accessible values. */
async function percentages(form: Locator): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const answer of flowSurvey.answers) {
    const meter = form.getByRole('meter', { name: answer.label, exact: true });
    result[answer.label] = Number(await meter.getAttribute('aria-valuenow'));
  }
  return result;
}

const expected = (shares: Record<number, number>) =>
  Object.fromEntries(flowSurvey.answers.map((answer) => [answer.label, shares[answer.position] ?? 0]));

test.describe('survey widget', () => {
  test('vote, see percentages, reload shows results at once, a second browser changes them', async ({ page, browser, stack, problems }) => {
    const [firstAnswer, secondAnswer] = flowSurvey.answers as [(typeof flowSurvey.answers)[0], (typeof flowSurvey.answers)[0]];
    const form = await openArticle(page, stack.url, flowArticle.url);
    await expect(form.getByRole('group', { name: flowSurvey.question })).toBeVisible();

    await form.getByRole('radio', { name: firstAnswer.label, exact: true }).check();
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form).toHaveAttribute('data-phase', 'results');
    await expect(form.getByRole('button', { name: 'Vote' })).toHaveCount(0);
    for (const radio of await form.getByRole('radio').all()) await expect(radio).toBeDisabled();
    expect(await percentages(form)).toEqual(expected({ [firstAnswer.position]: 100 }));
    await expect(form.getByText('100%', { exact: true })).toBeVisible();
    await expect(form.getByRole('status')).toContainText(`${firstAnswer.label} 100%`);

    await page.reload();
    await islandsSettled(page);
    await expect(surveyForm(page)).toHaveAttribute('data-phase', 'results');
    await expect(surveyForm(page).getByRole('button', { name: 'Vote' })).toHaveCount(0);
    expect(await percentages(surveyForm(page))).toEqual(expected({ [firstAnswer.position]: 100 }));

    const other = await browser.newContext();
    try {
      const otherPage = await other.newPage();
      const otherForm = await openArticle(otherPage, stack.url, flowArticle.url);
      await expect(otherForm).toHaveAttribute('data-phase', 'answering');
      await otherForm.getByRole('radio', { name: secondAnswer.label, exact: true }).check();
      await otherForm.getByRole('button', { name: 'Vote' }).click();
      await expect(otherForm).toHaveAttribute('data-phase', 'results');
      expect(await percentages(otherForm)).toEqual(expected({ [firstAnswer.position]: 50, [secondAnswer.position]: 50 }));
    } finally {
      await other.close();
    }

    await page.reload();
    await islandsSettled(page);
    await expect(surveyForm(page)).toHaveAttribute('data-phase', 'results');
    expect(await percentages(surveyForm(page))).toEqual(expected({ [firstAnswer.position]: 50, [secondAnswer.position]: 50 }));

    expect(problems.errors.filter((text) => /survey/i.test(text))).toEqual([]);
    expect(problems.failedResponses.filter((text) => /survey/i.test(text))).toEqual([]);
  });

  test('a vote refused because many came from the same address says when to try again (Retry-After)', async ({ page, stack }) => {
    const answer = limitedSurvey.answers[0]!;
    // Colleagues behind the same address (here: loopback) used up what one address may send at once.
    const statuses: number[] = [];
    for (let i = 0; i < voteBurst(); i += 1) statuses.push(await scriptVote(stack.url, limitedSurvey.formHandle, answer.position));
    expect(statuses.every((status) => status === 201)).toBe(true);

    const form = await openArticle(page, stack.url, limitedArticle.url);
    await expect(form).toHaveAttribute('data-phase', 'answering');
    await form.getByRole('radio', { name: answer.label, exact: true }).check();
    const refused = page.waitForResponse((response) => response.url().includes('/submissions') && response.request().method() === 'POST');
    await form.getByRole('button', { name: 'Vote' }).click();
    const response = await refused;
    expect(response.status()).toBe(429);
    const seconds = Number(response.headers()['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    const alert = form.getByRole('alert');
    await expect(alert).toHaveText(/Please try again in \d+ (seconds?|minutes?) \(at \d{1,2}:\d{2}(:\d{2})?( [AP]M)?\)\.$/);
    // The wait shown is what Retry-After said, less the moments since the answer came.
    const [, count, unit] = /try again in (\d+) (second|minute)/.exec((await alert.textContent())!)!;
    const shownSeconds = unit === 'minute' ? Number(count) * 60 : Number(count);
    expect(shownSeconds).toBeLessThanOrEqual(unit === 'minute' ? Math.ceil(seconds / 60) * 60 : seconds);
    expect(shownSeconds).toBeGreaterThan(0);
    // Nothing was remembered: the visitor can vote again later.
    await expect(form).toHaveAttribute('data-phase', 'answering');
    await expect(form.getByRole('button', { name: 'Vote' })).toBeEnabled();
  });

  test('can be answered with the keyboard alone', async ({ page, stack }) => {
    const form = await openArticle(page, stack.url, keyboardArticle.url);
    const [firstAnswer, secondAnswer] = keyboardSurvey.answers as [(typeof keyboardSurvey.answers)[0], (typeof keyboardSurvey.answers)[0]];
    await form.getByRole('radio', { name: firstAnswer.label, exact: true }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await expect(form.getByRole('radio', { name: secondAnswer.label, exact: true })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('button', { name: 'Vote' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(form).toHaveAttribute('data-phase', 'results');
    await expect(form.getByRole('meter', { name: secondAnswer.label, exact: true })).toHaveAttribute('aria-valuenow', '100');
    // The button is gone: focus stays in the widget, on the results summary.
    await expect(form.getByRole('status')).toBeFocused();
  });
});
