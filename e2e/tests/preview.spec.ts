// Issue 22, point 2: a team publishes a candidate with `npm run deploy -w <remote> -- --preview`;
// the printed link shows it, server HTML and browser code, to one browser only; everyone else,
// and a tampered or expired preview cookie, gets the live build.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { previewLink } from '@khs/deploy/preview-link';
import type { BrowserContext, Page } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { expect, test } from '../harness/fixtures.js';
import { REPO_ROOT } from '../harness/stack.js';
import { CANDIDATE_REMOTE as REMOTE, hydratedSurvey, RELEASE_MARKER, startWithSurveyCandidate, watchSurveyPage, type SurveyCandidate } from '../harness/surveyCandidate.js';

const run = promisify(execFile);
const PREVIEW_SECRET = 'e2e-remote-preview-secret-0123456789';
const PREVIEW_COOKIE = 'khs_remote_preview';

let candidate: SurveyCandidate;
let link: string;

/** Opens the article in `context`: its server HTML and headers, and what the browser ran. */
async function openArticle(context: BrowserContext) {
  const page = await context.newPage();
  const { problems, remoteScripts } = watchSurveyPage(page, candidate.stack);
  const response = await page.goto(candidate.articleUrl);
  const html = await response!.text();
  const island = await hydratedSurvey(page);
  return { page, html, headers: response!.headers(), island, problems, remoteScripts };
}

/** The page shows `version` of the survey: server HTML, hydrated markup and the scripts it ran. */
async function expectRuns(opened: Awaited<ReturnType<typeof openArticle>>, version: string, isCandidate: boolean): Promise<void> {
  expect(opened.html.includes(RELEASE_MARKER)).toBe(isCandidate);
  await expect(opened.island.locator(`[${RELEASE_MARKER}]`)).toHaveCount(isCandidate ? 1 : 0);
  expect(opened.remoteScripts.length).toBeGreaterThan(0);
  expect(opened.remoteScripts.every((url) => url.startsWith(`${candidate.stack.remotes[REMOTE]}/versions/${version}/`)), opened.remoteScripts.join('\n')).toBe(true);
  expect(opened.problems).toEqual([]);
}

const marker = (page: Page) => page.getByRole('complementary', { name: 'Preview' });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  candidate = await startWithSurveyCandidate({ env: { REMOTE_PREVIEW_SECRET: PREVIEW_SECRET } });
  const { stack, v1, v2, v2Dist, originDir, liveVersion } = candidate;
  // The team's command, as a person runs it from the repository root.
  const published = await run('npm', ['run', '--silent', 'deploy', '-w', REMOTE, '--', '--preview', '--site', stack.url, '--to', originDir, '--from', v2Dist], {
    cwd: REPO_ROOT,
    env: { ...process.env, REMOTE_PREVIEW_SECRET: PREVIEW_SECRET },
  });
  expect(published.stdout).toContain(`${REMOTE}: ${v2} published in ${originDir}, not live`);
  link = /preview link \(valid 24 h\): (\S+)/.exec(published.stdout)![1]!;
  expect(liveVersion()).toBe(v1);
});

test.afterAll(async () => {
  await candidate?.close();
});

test('the preview link shows the candidate to this browser only, server HTML and browser code, with a marker that ends it', async () => {
  const { stack, browser, v1, v2 } = candidate;
  test.setTimeout(120_000);
  expect(new URL(link).origin).toBe(new URL(stack.url).origin);
  // CSP bypassed for axe's injected script only.
  const previewing = await browser.newContext({ bypassCSP: true });
  const opening = await previewing.newPage();
  await opening.goto(link);
  expect(new URL(opening.url()).pathname).toBe('/');
  await expect(marker(opening)).toContainText(`Preview: ${REMOTE} at ${v2}`);
  const [cookie] = (await previewing.cookies()).filter((candidate) => candidate.name === PREVIEW_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

  const preview = await openArticle(previewing);
  await expectRuns(preview, v2, true);
  expect(preview.headers['cache-control']).toBe('private, no-store');
  expect(preview.headers.etag).toBeUndefined();
  await expect(marker(preview.page)).toBeVisible();
  expect(await axeViolations(preview.page)).toEqual([]);

  // Everyone else: the live build, shared-cacheable.
  const other = await browser.newContext();
  const live = await openArticle(other);
  await expectRuns(live, v1, false);
  expect(live.headers['cache-control']).toMatch(/^public/);
  await expect(marker(live.page)).toHaveCount(0);
  await other.close();

  // The marker's button ends the preview (keyboard).
  await marker(preview.page).getByRole('button', { name: 'End preview' }).focus();
  await preview.page.keyboard.press('Enter');
  await preview.page.waitForURL(new URL('/', stack.url).href);
  await expect(marker(preview.page)).toHaveCount(0);
  const ended = await openArticle(previewing);
  await expectRuns(ended, v1, false);
  await previewing.close();
});

test('a tampered or expired preview cookie, and a forged link, show the live build', async () => {
  const { stack, browser, v1, v2 } = candidate;
  test.setTimeout(120_000);
  const url = new URL(stack.url);
  // A valid cookie whose expiry was pushed a year on: its signature no longer matches.
  const source = await browser.newContext();
  await (await source.newPage()).goto(link);
  const valid = (await source.cookies()).find((candidate) => candidate.name === PREVIEW_COOKIE)!.value;
  await source.close();
  const entries = JSON.parse(Buffer.from(valid, 'base64url').toString('utf8')) as Array<Record<string, unknown>>;
  const tampered = Buffer.from(JSON.stringify(entries.map((entry) => ({ ...entry, expires: Number(entry.expires) + 365 * 24 * 3600 * 1000 })))).toString('base64url');

  // An expired one: a link valid for 3 s, its cookie kept by hand after it expired. Read from the
  // link's own answer: a browser drops the cookie when it expires, which a slow machine's redirect
  // and first page (the preview build warmed first) can outlast.
  const shortLink = previewLink({ site: stack.url, remote: REMOTE, version: v2, secret: PREVIEW_SECRET, expires: Date.now() + 3_000 });
  const shortAnswer = await fetch(shortLink, { redirect: 'manual' });
  expect(shortAnswer.status).toBe(303);
  const expiring = shortAnswer.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${PREVIEW_COOKIE}=`))!
    .slice(PREVIEW_COOKIE.length + 1)
    .split(';')[0]!;
  await expect.poll(() => Date.now(), { timeout: 10_000 }).toBeGreaterThan(Number(new URL(shortLink).searchParams.get('expires')));

  for (const value of [tampered, expiring]) {
    const context = await browser.newContext();
    await context.addCookies([{ name: PREVIEW_COOKIE, value, domain: url.hostname, path: '/', httpOnly: true, expires: Math.floor(Date.now() / 1000) + 3600 }]);
    const opened = await openArticle(context);
    await expectRuns(opened, v1, false);
    await expect(marker(opened.page)).toHaveCount(0);
    await context.close();
  }

  const forged = new URL(link);
  forged.searchParams.set('sig', 'A'.repeat(43));
  const refused = await fetch(forged, { redirect: 'manual' });
  expect(refused.status).toBe(403);
  expect(refused.headers.get('set-cookie')).toBeNull();
  expect(await refused.text()).toContain('not valid');
});
