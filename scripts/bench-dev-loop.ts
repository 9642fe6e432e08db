// The dev loop's speed (issue 22, item 1): `npm run dev -w mf-survey` in a throwaway copy of the
// checkout, Chromium on an article with the survey, then
// - 10 saves of a React component's text (SurveyWidget.tsx): save → the new text in the open page
//   (no reload: the island is swapped in place), goal ≤ 1 s;
// - 10 saves of server-rendered code (Survey.server.tsx): save → the next page load in Chromium
//   shows it in the server HTML, goal ≤ 2 s (the HTML polled every 25 ms until it has it, then a
//   navigation of a second tab, until its DOM is ready).
// Baseline, from the same run: what a team waited for before, one production build of the same
// remote (`rspack build --mode production`: browser, standalone and server targets), before its
// deploy and the shell's 2 s poll. Figures are printed, never asserted.
// Run: npx tsx scripts/bench-dev-loop.ts   (after npm run build; DEV_LOOP_SAVES=10)
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { getSurvey, listArticles } from '@khs/content';
import { chromiumLaunchOptions } from '../e2e/harness/chromium.js';
import { startDevSite } from '../e2e/harness/devSite.js';
import { throwawayCheckout } from '../e2e/harness/throwawayCheckout.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const REMOTE = 'mf-survey';
const SAVES = Number(process.env.DEV_LOOP_SAVES ?? 10);
const WIDGET = 'mf-survey/src/components/SurveyWidget.tsx';
const SERVER_RENDER = 'mf-survey/src/islands/Survey.server.tsx';
const BUTTON_TEXT = "{phase === 'submitting' ? texts.submitting : texts.submit}";
const SERVER_TEXTS = 'texts={surveyTexts(config.i18n)}';

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}
const summary = (values: number[]) => `p50 ${percentile(values, 0.5)} ms, p95 ${percentile(values, 0.95)} ms (min ${Math.min(...values)}, max ${Math.max(...values)}, n=${values.length})`;

const checkout = throwawayCheckout(ROOT, 'khs-bench-dev-loop-');
const site = await startDevSite(checkout.root, REMOTE, { REMOTE_REVALIDATE_MS: '600000' });
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;
  const articleUrl = new URL(article.url, site.url).href;
  const page = await browser.newPage();
  await page.goto(articleUrl);
  // Generous: a machine shared by many runs the first render slowly.
  await page.locator('.article__survey form.khs-survey').scrollIntoViewIfNeeded({ timeout: 120_000 });
  await page.locator('.article__survey .khs-survey__submit').waitFor({ timeout: 120_000 });
  await page.evaluate(() => ((window as unknown as { benchMarker: number }).benchMarker = 1));

  const widgetFile = path.join(checkout.root, WIDGET);
  const widgetSource = readFileSync(widgetFile, 'utf8');
  const browserTimes: number[] = [];
  const browserBuildToShell: number[] = [];
  for (let save = 1; save <= SAVES; save += 1) {
    const text = `Vote ${save}`;
    const seen = site.rebuilds.length;
    const savedAt = Date.now();
    writeFileSync(widgetFile, widgetSource.replace(BUTTON_TEXT, `{phase === 'submitting' ? texts.submitting : ${JSON.stringify(text)}}`));
    await page.waitForFunction((expected) => document.querySelector('.article__survey .khs-survey__submit')?.textContent === expected, text, { timeout: 60_000, polling: 'raf' });
    browserTimes.push(Date.now() - savedAt);
    browserBuildToShell.push((await site.rebuildAfter(seen)).msSinceBuilt);
    if ((await page.evaluate(() => (window as unknown as { benchMarker?: number }).benchMarker)) !== 1) throw new Error('the page was reloaded');
  }

  // The component as it was (its label comes from the texts again), built before the next series.
  const beforeRestore = site.rebuilds.length;
  writeFileSync(widgetFile, widgetSource);
  await site.rebuildAfter(beforeRestore);

  const serverFile = path.join(checkout.root, SERVER_RENDER);
  const serverSource = readFileSync(serverFile, 'utf8');
  // A second tab showing the page as it comes from the server (its scripts off: what shows is the server HTML).
  const serverView = await browser.newPage();
  await serverView.route('**/*.js', (route) => route.abort());
  const htmlTimes: number[] = [];
  const shownTimes: number[] = [];
  for (let save = 1; save <= SAVES; save += 1) {
    const text = `Server vote ${save}`;
    const savedAt = Date.now();
    writeFileSync(serverFile, serverSource.replace(SERVER_TEXTS, `texts={{ ...surveyTexts(config.i18n), submit: ${JSON.stringify(text)} }}`));
    for (;;) {
      const html = await (await fetch(articleUrl)).text();
      if (html.includes(`>${text}`)) break;
      if (Date.now() - savedAt > 60_000) throw new Error(`"${text}" not in the HTML after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    htmlTimes.push(Date.now() - savedAt);
    await serverView.goto(articleUrl, { waitUntil: 'domcontentloaded' });
    if (!(await serverView.locator('.article__survey .khs-survey__submit').textContent())?.includes(text)) throw new Error(`"${text}" not shown after a page load`);
    shownTimes.push(Date.now() - savedAt);
  }

  // Baseline, same run: one production build of the same remote in the copy.
  const buildStartedAt = Date.now();
  const build = spawnSync('npm', ['run', 'build', '-w', REMOTE], { cwd: checkout.root, stdio: 'ignore' });
  const productionBuildMs = Date.now() - buildStartedAt;

  console.log(`[bench:dev-loop] ${REMOTE}, ${SAVES} saves each, on ${site.url}`);
  console.log(`[bench:dev-loop] browser-only change, save → visible in the open page (no reload): ${summary(browserTimes)}  (goal ≤ 1000 ms)`);
  console.log(`[bench:dev-loop]   of which build end → shell renders with it (deploy to the dev origin + the shell's reload): ${summary(browserBuildToShell)}`);
  console.log(`[bench:dev-loop] server change, save → in the next HTML: ${summary(htmlTimes)}`);
  console.log(`[bench:dev-loop] server change, save → shown by a page load in Chromium: ${summary(shownTimes)}  (goal ≤ 2000 ms)`);
  console.log(`[bench:dev-loop] baseline (same run): one production build of ${REMOTE}, before any deploy and the shell's 2 s poll: ${productionBuildMs} ms${build.status === 0 ? '' : ` (failed: exit ${build.status})`}`);
} finally {
  await browser.close();
  await site.stop();
  checkout.remove();
}
