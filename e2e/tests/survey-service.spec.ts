// The survey is its own service (mf-survey/server), reached through the shell's proxy. Here it is
// stopped, restarted and redeployed while the shell keeps running: the page must stay readable, the
// other islands working, the survey island must show its error state, and the service must come
// back (or change) without the shell being restarted or the page reloaded.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getSurvey, listArticles } from '@khs/content';
import type { Page } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { VARIANTS_DIR } from '../harness/remoteVariant.js';
import { REPO_ROOT, type Stack } from '../harness/stack.js';

// The last article of a survey no other spec votes on (survey.spec uses the first two surveys).
const surveyArticles = listArticles()
  .filter((article) => article.surveyHandle && getSurvey(article.surveyHandle))
  .filter((article, index, all) => all.findIndex((other) => other.surveyHandle === article.surveyHandle) === index);
const article = surveyArticles.at(-1)!;
const survey = getSurvey(article.surveyHandle!)!;
const [answer] = survey.answers as [(typeof survey.answers)[0]];

const surveyForm = (page: Page) => page.locator('.article__survey form.khs-survey');
const stillRunning = (stack: Stack) => Promise.race([stack.shellExit.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50))]);

/** A copy of the survey slice's service whose code differs: `change` edits the copied sources. */
function changedSurveyService(change: (serverDir: string) => void): string {
  mkdirSync(VARIANTS_DIR, { recursive: true });
  const sliceDir = mkdtempSync(path.join(VARIANTS_DIR, 'mf-survey-service-'));
  cpSync(path.join(REPO_ROOT, 'mf-survey/server'), path.join(sliceDir, 'server'), { recursive: true, filter: (source) => !source.endsWith('.test.ts') });
  // The service imports the slice's percentage rule from its remote's sources (one rule, one place).
  cpSync(path.join(REPO_ROOT, 'mf-survey/src/results'), path.join(sliceDir, 'src/results'), { recursive: true, filter: (source) => !source.endsWith('.test.ts') });
  // And its edge policy from the slice's manifest.
  cpSync(path.join(REPO_ROOT, 'mf-survey/slice.json'), path.join(sliceDir, 'slice.json'));
  change(path.join(sliceDir, 'server'));
  return sliceDir;
}

test.describe('survey service on its own', () => {
  test.use({ bypassCSP: true }); // axe is injected as an inline script

  test('stopped: the article reads, the watchlist button works, the survey shows its error; restarted: the same page votes', async ({ page, stack, problems }) => {
    await stack.stopService('survey');
    try {
      await page.goto(new URL(article.url, stack.url).href);
      await islandsSettled(page);
      // The article is all there.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(article.headline || article.title);
      await expect(page.locator('.article__intro')).toHaveText(article.intro);
      await expect(page.locator('.article__content p').first()).toBeVisible();
      // Another island still works: the watchlist button adds the article and the header badge counts it.
      await page.locator('.article__watchlist').getByRole('button', { name: 'Add to watchlist' }).click();
      await expect(page.locator('.article__watchlist').getByRole('button', { name: 'Remove from watchlist' })).toBeVisible();
      await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('1');

      // The survey renders (question and answers come with the page), and a vote shows its error state.
      const form = surveyForm(page);
      await expect(form.getByRole('group', { name: survey.question })).toBeVisible();
      await form.getByRole('radio', { name: answer.label, exact: true }).check();
      const refused = page.waitForResponse((response) => response.url().includes('/api/surveys/') && response.request().method() === 'POST');
      await form.getByRole('button', { name: 'Vote' }).click();
      const response = await refused;
      expect(response.status()).toBe(503);
      expect(response.headers()['content-type']).toMatch(/^application\/json/);
      // The same call from outside the page, to read the JSON (the widget does not read the body).
      const direct = await page.request.get(new URL(`/api/survey-results/${survey.formHandle}`, stack.url).href);
      expect(direct.status()).toBe(503);
      expect(await direct.json()).toMatchObject({ code: 'service-unavailable', error: expect.stringContaining('survey service') });
      await expect(form.getByRole('alert')).toHaveText('Your vote could not be sent. Please try again.');
      await expect(form).toHaveAttribute('data-phase', 'answering');
      await expect(form.getByRole('button', { name: 'Vote' })).toBeEnabled();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await stack.startService('survey');
    }
    // Back without a reload: the same page votes and shows the results; the shell never stopped.
    expect(await stillRunning(stack)).toBe(true);
    const form = surveyForm(page);
    await form.getByRole('button', { name: 'Vote' }).click();
    await expect(form).toHaveAttribute('data-phase', 'results');
    await expect(form.getByRole('meter', { name: answer.label, exact: true })).toHaveAttribute('aria-valuenow', '100');
    await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('1');
    expect(problems.failedResponses.filter((line) => !line.startsWith('503 '))).toEqual([]);
  });

  test('a change to the service code takes effect by restarting that service alone, the shell still running', async ({ page, stack }) => {
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    const unknown = () => page.request.get(new URL('/api/survey-results/no-such-survey', stack.url).href).then(async (response) => ({ status: response.status(), body: await response.json() }));
    expect(await unknown()).toEqual({ status: 404, body: { error: 'Unknown survey', code: 'not-found' } });
    const before = stack.servicePid('survey');

    const sliceDir = changedSurveyService((serverDir) => {
      const file = path.join(serverDir, 'src/surveyRoutes.ts');
      const source = readFileSync(file, 'utf8');
      expect(source).toContain("'Unknown survey'");
      writeFileSync(file, source.replaceAll("'Unknown survey'", "'There is no survey by that name'"));
    });
    try {
      const { pid } = await stack.startService('survey', sliceDir);
      expect(pid).not.toBe(before);
      expect(await stillRunning(stack)).toBe(true);
      expect(await unknown()).toEqual({ status: 404, body: { error: 'There is no survey by that name', code: 'not-found' } });
      // The page (served by the same shell) keeps working against the redeployed service.
      const form = surveyForm(page);
      await expect(form).toHaveAttribute('data-phase', /answering|results/);
    } finally {
      await stack.startService('survey');
      rmSync(sliceDir, { recursive: true, force: true });
    }
    expect(await unknown()).toEqual({ status: 404, body: { error: 'Unknown survey', code: 'not-found' } });
  });
});
