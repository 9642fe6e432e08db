// Host skew of the bundler runtime (issue 26): remote containers take the federation bundler
// runtime and their container setup from the page's host (tooling/rspack-preset
// provideBundlerRuntime.mjs). On a page whose host does not provide them — a shell built before
// they were provided, simulated here by a global the provider cannot set — every container built
// now refuses cleanly at its start: a clear error naming what is missing (no TypeError deep in the
// federation setup), the shell reports KHS-ISLAND-002 (the entry failed) for it, and every island
// keeps its server HTML, so the page still reads and its links and forms work.
import { listArticles, listSurveys } from '@khs/content';
import { examplePageConfig } from 'contracts';
import { expect, islandFailuresIn, islandsSettled, serverRendered, test } from '../harness/fixtures.js';
import { ISLAND_FAILURE_REPORT_PATH } from '../../shell/src/shared/islandFailureReport.js';
import { BUNDLER_RUNTIME_GLOBAL } from '../../tooling/rspack-preset/bundlerRuntimeGlobal.mjs';

const { i18n } = examplePageConfig();

function articleWithSurvey() {
  const surveys = new Set(listSurveys().map((survey) => survey.formHandle));
  const article = listArticles().find((candidate) => candidate.surveyHandle && surveys.has(candidate.surveyHandle));
  if (!article) throw new Error('no article with a survey in the seeded content');
  return article;
}

test("a host without the provided bundler runtime: each container refuses cleanly, the islands keep their fallback, KHS-ISLAND-002 is reported", async ({ page, stack }) => {
  // An older shell: nothing provides the global (the provider's assignment is ignored).
  await page.addInitScript((name) => {
    Object.defineProperty(window, name, { configurable: false, get: () => undefined, set: () => {} });
  }, BUNDLER_RUNTIME_GLOBAL);
  // The beacons' bodies as they go over the wire (sendBeacon bodies are only visible to a route).
  const reports: Array<Record<string, unknown>> = [];
  await page.route(`**${ISLAND_FAILURE_REPORT_PATH}`, async (route) => {
    reports.push(...islandFailuresIn(JSON.parse(route.request().postDataBuffer()?.toString() ?? 'null')));
    await route.continue();
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  // The fallback asserted below is the server's markup: wait until the shell has warmed the remotes.
  const article = articleWithSurvey();
  await serverRendered(stack.url, article.url, ['khs-watchlist-button', 'khs-survey']);
  const url = new URL(article.url, stack.url).href;
  await page.goto(url);
  await islandsSettled(page);

  // Every island of a loaded remote failed and keeps its fallback markup (the server's, or the
  // shell's placeholder where the island has one), as for any remote that cannot load.
  const islands = await page
    .locator('[data-island^="mf-survey/"], [data-island^="mf-watchlist/"]')
    .evaluateAll((elements) => elements.map((element) => ({ island: element.getAttribute('data-island'), state: element.getAttribute('data-island-state'), html: element.innerHTML.trim() })));
  expect(islands.map(({ island }) => island)).toEqual(expect.arrayContaining(['mf-survey/Survey', 'mf-watchlist/WatchlistButton', 'mf-watchlist/WatchlistLink']));
  for (const island of islands) {
    expect(island.state, island.island!).toBe('failed');
    expect(island.html, island.island!).not.toBe('');
  }
  await expect(page.locator('.site-header__watchlist').getByRole('link', { name: i18n.watchlistLink })).toHaveAttribute('href', '/watchlist');
  await expect(page.locator('h1').first()).toBeVisible();

  // Each container that was loaded said what is missing, and the shell reported its entry as failed.
  await expect.poll(() => new Set(reports.map((report) => report.remote)).size).toBeGreaterThanOrEqual(2);
  const loaded = [...new Set(reports.map((report) => report.remote))].sort();
  expect(loaded).toEqual(expect.arrayContaining(['mf-survey', 'mf-watchlist']));
  for (const report of reports) expect(report).toMatchObject({ stage: 'entry', code: 'KHS-ISLAND-002' });
  const refusals = pageErrors.filter((message) => message.includes("needs the page's federation bundler runtime"));
  expect(refusals.length).toBeGreaterThanOrEqual(loaded.length);
  expect(pageErrors.filter((message) => message.includes('TypeError') || message.includes('Cannot read properties'))).toEqual([]);
});
