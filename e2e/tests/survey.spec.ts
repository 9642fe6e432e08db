import { getSurvey, listArticles } from '@khs/content';
import type { Locator, Page } from '@playwright/test';
import { expect, islandsSettled, test } from '../harness/fixtures.js';

// Two articles with different surveys: each test votes on its own survey (the stack is shared per worker).
const surveyArticles = listArticles()
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const [flowArticle, keyboardArticle] = surveyArticles as [(typeof surveyArticles)[0], (typeof surveyArticles)[0]];
const flowSurvey = getSurvey(flowArticle.surveyHandle!)!;
const keyboardSurvey = getSurvey(keyboardArticle.surveyHandle!)!;

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
