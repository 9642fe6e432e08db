// The dev loop (issue 22, item 1): `npm run dev -w mf-survey` in a throwaway copy of the whole
// checkout; a saved change to a React component shows in the open page without a reload, a saved
// change to server-rendered code is in the next request's HTML (the shell learns of the rebuild at
// once: its manifest poll is set to 10 minutes here, so only the dev starter's notice can tell it),
// and the other remotes are untouched (same asset URLs).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getSurvey, listArticles } from '@khs/content';
import { expect, test, type Page } from '@playwright/test';
import { islandsSettled } from '../harness/fixtures.js';
import { REPO_ROOT } from '../harness/stack.js';
import { startDevSite, type RunningDevSite } from '../harness/devSite.js';
import { throwawayCheckout, type ThrowawayCheckout } from '../harness/throwawayCheckout.js';

const REMOTE = 'mf-survey';
const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;
const WIDGET = 'mf-survey/src/components/SurveyWidget.tsx';
const SERVER_RENDER = 'mf-survey/src/islands/Survey.server.tsx';
const BUTTON_TEXT = '{phase === \'submitting\' ? texts.submitting : texts.submit}';
const SERVER_TEXTS = 'texts={surveyTexts(config.i18n)}';

let checkout: ThrowawayCheckout;
let site: RunningDevSite;

test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

test.beforeAll(async () => {
  test.setTimeout(300_000);
  checkout = throwawayCheckout(REPO_ROOT, 'khs-dev-loop-');
  // Hops and renders not cut short by a busy machine: with the poll 10 minutes away, a manifest
  // fetch that timed out at the start would otherwise leave the first page without its survey.
  site = await startDevSite(checkout.root, REMOTE, { REMOTE_REVALIDATE_MS: '600000', REMOTE_SERVER_TIMEOUT_MS: '10000', ISLAND_RENDER_BUDGET_MS: '20000' });
});

test.afterAll(async () => {
  await site?.stop();
  checkout?.remove();
});

/** Replaces `from` (which must be there) by `to` in a file of the copy: a save in an editor. */
function edit(file: string, from: string, to: string): void {
  const full = path.join(checkout.root, file);
  const source = readFileSync(full, 'utf8');
  expect(source, `${file} holds the text the test edits`).toContain(from);
  writeFileSync(full, source.replace(from, to));
}

/** URLs of every stylesheet and script the HTML names on an origin other than the dev remote's. */
function otherRemotesAssets(html: string, devOrigin: string, siteOrigin: string): string[] {
  const urls = [...html.matchAll(/(?:href|src)="(http:\/\/127\.0\.0\.1:\d+\/[^"]+)"/g)].map((match) => match[1]!);
  return [...new Set(urls.filter((url) => !url.startsWith(devOrigin) && !url.startsWith(siteOrigin)))].sort();
}

/**
 * The manifests and containers the page loaded from the other remotes' origins so far, each load
 * counted (a remote registered again would fetch both again; its lazy chunks may come any time).
 */
function remoteLoadsFromOtherOrigins(page: Page, devOrigin: string, siteOrigin: string): Promise<string[]> {
  return page.evaluate(
    ([dev, own]) =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => !name.startsWith(dev!) && !name.startsWith(own!) && /\/(mf-manifest\.json|remoteEntry\.[0-9a-f]+\.js)$/.test(name))
        .sort(),
    [devOrigin, siteOrigin],
  );
}

test('a saved component shows in the open page without a reload; saved server code is in the next HTML; other remotes untouched', async ({ page }) => {
  const devOrigin = new URL(site.manifestUrl).origin;
  const siteOrigin = new URL(site.url).origin;
  const articleUrl = new URL(article.url, site.url).href;

  await page.goto(articleUrl);
  const survey = page.locator('.article__survey form.khs-survey');
  // The island hydrates when seen: scroll to it (a placeholder has no form yet).
  await page.locator(`[data-island="${REMOTE}/Survey"]`).scrollIntoViewIfNeeded();
  await survey.scrollIntoViewIfNeeded();
  await expect(survey).toHaveAttribute('data-phase', /answering|results/);
  const button = survey.locator('.khs-survey__submit');
  await expect(button).toHaveText('Vote');
  const marker = `kept-${Math.random()}`;
  await page.evaluate((value) => ((window as unknown as { devLoopMarker: string }).devLoopMarker = value), marker);
  await islandsSettled(page);
  // After a first render (the shell's server has every manifest by then): the HTML names the other
  // remotes' built assets (their origins, their hashed files).
  const firstHtml = await (await page.request.get(articleUrl)).text();
  const otherAssets = otherRemotesAssets(firstHtml, devOrigin, siteOrigin);
  expect(otherAssets.some((url) => /\/styles\.[0-9a-f]{8}\.css$/.test(url))).toBe(true);
  const loadedBefore = await remoteLoadsFromOtherOrigins(page, devOrigin, siteOrigin);
  expect(loadedBefore.length).toBeGreaterThan(0);
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  // Scrolled to the end of the article, where the survey is: the swap must not move the page (issue 35).
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(survey).toBeInViewport();
  const scrollY = await page.evaluate(() => window.scrollY);
  expect(scrollY).toBeGreaterThan(0);

  // 1. A React component's text, saved: the open page shows it, the window is the same one.
  const seen = site.rebuilds.length;
  edit(WIDGET, BUTTON_TEXT, "{phase === 'submitting' ? texts.submitting : `${texts.submit} (edited live)`}");
  // The rebuild and the swap take what the machine gives them: no clock of its own, the test's bounds it.
  await expect(button).toHaveText('Vote (edited live)', { timeout: test.info().timeout });
  expect(await page.evaluate(() => (window as unknown as { devLoopMarker?: string }).devLoopMarker)).toBe(marker);
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  const browserBuild = await site.rebuildAfter(seen);
  await expect(page.locator('html')).toHaveAttribute('data-khs-dev-build', `${REMOTE}@${browserBuild.buildVersion}`);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
  // The swap loaded no other remote again (no manifest, no container).
  expect(await remoteLoadsFromOtherOrigins(page, devOrigin, siteOrigin)).toEqual(loadedBefore);

  // 2. Server-rendered code, saved: the next request's HTML has it (the shell's poll is 10 minutes away).
  const beforeServerEdit = site.rebuilds.length;
  edit(SERVER_RENDER, SERVER_TEXTS, "texts={{ ...surveyTexts(config.i18n), submit: 'Vote (server edit)' }}");
  const serverBuild = await site.rebuildAfter(beforeServerEdit);
  expect(serverBuild.buildVersion).not.toBe(browserBuild.buildVersion);
  const nextHtml = await (await page.request.get(articleUrl)).text();
  expect(nextHtml).toMatch(/<button[^>]*class="khs-survey__submit"[^>]*>Vote \(server edit\) \(edited live\)<\/button>/);
  expect(firstHtml).not.toContain('(edited live)');
  // The other remotes: the same assets, from the same builds.
  expect(otherRemotesAssets(nextHtml, devOrigin, siteOrigin)).toEqual(otherAssets);
  // The dev remote's assets are the new build's own folder at its dev origin.
  expect(nextHtml).toContain(`${devOrigin}/versions/${serverBuild.buildVersion}/`);
  // Each rebuild replaced the remote's registration without the runtime's warning, in the site's
  // processes and in the page (issue 35).
  expect(site.output()).not.toMatch(/is already registered/);
  expect(consoleLines.filter((line) => /is already registered/.test(line))).toEqual([]);
});
