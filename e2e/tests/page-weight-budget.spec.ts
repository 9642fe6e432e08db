// Size budget (issue 14, "keep it honest in CI"): the scripts an article page loads before the
// reader does anything (no scrolling, no input), gzip -9 summed. A byte count, not a timing:
// it fails when a change makes the first view heavier than the budget.
import { gzipSync } from 'node:zlib';
import { listArticles, listSurveys } from '@khs/content';
import { expect, test } from '../harness/fixtures.js';

/**
 * Budget of the article page's initial scripts, gzip -9 bytes: what this build loads before the
 * reader does anything (145.5 KB on 2026-11-22: React 69.6 KB, the shell's runtime 31.4 KB and
 * own code 5.1 KB, the watchlist remote's entry and islands 17.9 KB, the page widgets' remote
 * entry and engine 21.6 KB, hydrated when the browser is idle) plus about 5 %. One more remote
 * entry loaded eagerly (about 14 KB, e.g. the header search hydrated at once instead of on
 * interaction) breaks it. The issue's goal is 110 KB: see its closing note for what stands between.
 */
export const ARTICLE_INITIAL_SCRIPTS_BUDGET_GZIP = 150 * 1024;

test('the article page\'s initial scripts stay within the byte budget', async ({ page, stack }) => {
  const surveys = new Set(listSurveys().map((survey) => survey.formHandle));
  // An article with a survey: every kind of island is on its page.
  const article = listArticles().find((candidate) => candidate.surveyHandle && surveys.has(candidate.surveyHandle)) ?? listArticles()[0]!;
  const url = new URL(article.url, stack.url).href;
  // Server-rendered (the survey's server build loaded), as a reader gets it.
  await expect.poll(async () => (await (await fetch(url)).text()).includes('khs-survey--interactive'), { timeout: 15_000 }).toBe(true);

  const scripts = new Map<string, number>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.set(response.url(), gzipSync(body, { level: 9 }).length);
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(url, { waitUntil: 'networkidle' });
  // Everything the first view hydrates is in: the islands in view and the idle ones. Islands that
  // wait for the reader's interaction load nothing before it (the header search, the contents link).
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLElement>('[data-island]')]
      .filter((element) => element.getAttribute('data-island-hydrate') !== 'interaction')
      .filter((element) => element.getAttribute('data-island-hydrate') !== 'visible' || element.getBoundingClientRect().top < window.innerHeight)
      .every((element) => element.getAttribute('data-island-state') === 'mounted'),
  );
  await page.waitForLoadState('networkidle');
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const listing = [...scripts].map(([file, size]) => `${size} ${file}`).join('\n');
  console.log(`article page initial scripts: ${scripts.size} files, ${total} B gzip -9 (budget ${ARTICLE_INITIAL_SCRIPTS_BUDGET_GZIP})\n${listing}`);
  expect(scripts.size).toBeGreaterThan(3);
  expect(total, listing).toBeLessThanOrEqual(ARTICLE_INITIAL_SCRIPTS_BUDGET_GZIP);
});
