// Issue 22, point 3: a page states the exact build of each remote it rendered and the browser loads
// that build. A deploy between the HTML and the scripts (held here until the switch is done) must not
// mix server v1 with client v2: the island hydrates with v1, no mismatch, no KHS-ISLAND-007 report.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PAGE_CONFIG_ELEMENT_ID } from 'contracts';
import type { Page, Route } from '@playwright/test';
import { expect, islandFailuresIn, test } from '../harness/fixtures.js';
import { REPO_ROOT } from '../harness/stack.js';
import { CANDIDATE_REMOTE as REMOTE, hydratedSurvey, RELEASE_MARKER, startWithSurveyCandidate, watchSurveyPage, type SurveyCandidate } from '../harness/surveyCandidate.js';

const run = promisify(execFile);

let candidate: SurveyCandidate;
const serverHtml = async () => (await fetch(candidate.articleUrl)).text();

/**
 * What went wrong on a page: console errors and warnings (a hydration mismatch is a warning), and the
 * island failures its beacons carried (their bodies are only visible to a route).
 */
async function watch(page: Page) {
  const { problems, remoteScripts } = watchSurveyPage(page, candidate.stack);
  const failureReports: Array<Record<string, unknown>> = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.route('**/api/island-failures', async (route) => {
    failureReports.push(...islandFailuresIn(JSON.parse(route.request().postDataBuffer()?.toString() ?? 'null')));
    await route.continue();
  });
  return { problems, failureReports, remoteScripts };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  candidate = await startWithSurveyCandidate();
});

test.afterAll(async () => {
  await candidate?.close();
});

test('a deploy between the HTML and the scripts: the page hydrates with the build it was rendered with', async () => {
  const { stack, browser, v1, v2, v2Dist, articleUrl, originDir, liveVersion } = candidate;
  test.setTimeout(120_000);
  const page = await browser.newPage();
  const { problems, failureReports, remoteScripts } = await watch(page);
  // Hold the survey's manifest and scripts (entry, chunks) until the switch. Not its stylesheet: it
  // is in the head, and a held stylesheet holds the shell's deferred runtime too.
  let release: () => void = () => {};
  const switched = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const remoteCode = (url: URL) => url.href.startsWith(stack.remotes[REMOTE]!) && /\.(js|json)$/.test(url.pathname);
  await page.route(remoteCode, async (route: Route) => {
    held += 1;
    await switched;
    await route.continue();
  });

  const response = await page.goto(articleUrl, { waitUntil: 'domcontentloaded' });
  const html = await response!.text();
  expect(html).not.toContain(RELEASE_MARKER);
  // The page names the build it rendered: the survey's manifest in its version's own folder.
  const config = JSON.parse(await page.locator(`#${PAGE_CONFIG_ELEMENT_ID}`).textContent() ?? '{}') as { remotes: { name: string; entry: string }[] };
  expect(config.remotes.find((remote) => remote.name === REMOTE)?.entry).toBe(`${stack.remotes[REMOTE]}/versions/${v1}/mf-manifest.json`);

  // The team deploys v2 now; the shell's server renders it from its next poll on.
  await page.locator(`[data-island="${REMOTE}/Survey"]`).scrollIntoViewIfNeeded();
  await run('npm', ['run', '--silent', 'deploy', '-w', REMOTE, '--', '--to', originDir, '--from', v2Dist], { cwd: REPO_ROOT });
  expect(liveVersion()).toBe(v2);
  await expect.poll(async () => (await serverHtml()).includes(RELEASE_MARKER), { timeout: 15_000 }).toBe(true);
  release();

  const island = await hydratedSurvey(page);
  expect(held).toBeGreaterThan(0);
  await expect(island.locator(`[${RELEASE_MARKER}]`)).toHaveCount(0);
  expect(remoteScripts.length).toBeGreaterThan(0);
  expect(remoteScripts.every((url) => url.startsWith(`${stack.remotes[REMOTE]}/versions/${v1}/`)), remoteScripts.join('\n')).toBe(true);
  expect(problems).toEqual([]);
  expect(failureReports.filter((failure) => failure.code === 'KHS-ISLAND-007')).toEqual([]);
  await page.close();

  // The next page is v2, server and browser.
  const next = await browser.newPage();
  const after = await watch(next);
  await next.goto(articleUrl);
  const nextIsland = await hydratedSurvey(next);
  await expect(nextIsland.locator(`[${RELEASE_MARKER}]`)).toHaveText(' (v2)');
  expect(after.remoteScripts.every((url) => url.startsWith(`${stack.remotes[REMOTE]}/versions/${v2}/`)), after.remoteScripts.join('\n')).toBe(true);
  expect(after.problems).toEqual([]);
  await next.close();
});
