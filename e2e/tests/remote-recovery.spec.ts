// Issue 35: the composed site heals itself. Every remote's origin is held (it accepts requests and
// answers none, as a paused process does: harness/heldOrigin.ts) through the shell's start; once
// released, the operators' view says every remote is reachable from the shell's next manifest poll,
// with no page asked for, and the next pages render the survey on the server. Then the shell is
// restarted with mf-survey's origin held again and a canary of mf-survey started before any page
// (the reproduction of the issue): once the origin answers, both sides render the survey, and the
// canary rule judges the canary (its build breaks in the browser: the rule ends it).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { getSurvey, listArticles } from '@khs/content';
import { REMOTES } from '@khs/stack/registry';
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../harness/chromium.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { heldOrigin, type HeldOrigin } from '../harness/heldOrigin.js';
import { remoteBuildVariant, VARIANTS_DIR } from '../harness/remoteVariant.js';
import { REPO_ROOT, STACK_START_TIMEOUT_MS, startStack, type Stack } from '../harness/stack.js';

const run = promisify(execFile);
const REMOTE = 'mf-survey';
const SURVEY = `[data-island="${REMOTE}/Survey"]`;
const OPERATOR_TOKEN = 'e2e-operator-token-recovery-0123456789';
/** The shell's manifest poll (`REMOTE_REVALIDATE_MS`): short, so the test waits little; nothing is timed against it. */
const POLL_MS = 1000;
/** The rule's minimums for a handful of visits (z reaches 2.326 at 4 failed canary views against 4 clean stable ones). */
const MIN_CANARY_VIEWS = 4;
const MIN_CANARY_FAILURES = 2;

interface RemoteHealth {
  name: string;
  reachable: boolean | null;
  lastPollAt: string | null;
  canary: null | {
    state: 'running' | 'ended';
    stable: { version: string; views: number; failures: number };
    canary: { version: string; views: number; failures: number };
    verdict: string | null;
    ended: null | { outcome: string; reason: string };
  };
}

const article = listArticles().find((candidate) => candidate.surveyHandle && getSurvey(candidate.surveyHandle))!;
let stack: Stack;
let browser: Browser;
let work: string;
const held = new Map<string, HeldOrigin>();
const logs: string[] = [];
/** Pages asked of the shell by this test (the operators' view must turn reachable without one). */
let pagesAsked = 0;

const articleUrl = () => new URL(article.url, stack.url).href;

async function remotesHealth(): Promise<RemoteHealth[]> {
  const response = await fetch(new URL('/health/remotes.json', stack.url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { remotes: RemoteHealth[] }).remotes;
}
const surveyHealth = async () => (await remotesHealth()).find((remote) => remote.name === REMOTE)!;

/** The survey's server HTML is in the page (its interactive form, rendered by the remote's server build). */
async function serverRendersSurvey(): Promise<boolean> {
  pagesAsked += 1;
  return (await (await fetch(articleUrl())).text()).includes('khs-survey--interactive');
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(STACK_START_TIMEOUT_MS + 60_000);
  mkdirSync(VARIANTS_DIR, { recursive: true });
  work = mkdtempSync(path.join(VARIANTS_DIR, 'recovery-'));
  for (const remote of REMOTES) held.set(remote.name, await heldOrigin());
  stack = await startStack({
    deployedOrigins: path.join(work, 'origins'),
    env: {
      OPERATOR_TOKEN,
      REMOTE_REVALIDATE_MS: String(POLL_MS),
      // Machine speed out of the picture: a hop or a render is never cut short by a busy machine.
      REMOTE_SERVER_TIMEOUT_MS: '10000',
      ISLAND_RENDER_BUDGET_MS: '60000',
      CANARY_MIN_VIEWS: String(MIN_CANARY_VIEWS),
      CANARY_MIN_FAILURES: String(MIN_CANARY_FAILURES),
      // The shell reaches each remote through its held origin.
      ...Object.fromEntries(REMOTES.map((remote) => [remote.manifestEnv, `${held.get(remote.name)!.url}/mf-manifest.json`])),
    },
    log: (line) => {
      logs.push(line);
      const served = /^\[stack\] (\S+) served at (http:\/\/127\.0\.0\.1:\d+)\//.exec(line);
      if (served) held.get(served[1]!)?.setTarget(served[2]!);
    },
  });
  browser = await chromium.launch(chromiumLaunchOptions());
});

test.afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await Promise.all([...held.values()].map((origin) => origin.close()));
  if (work) rmSync(work, { recursive: true, force: true });
});

test('after a slow start (every origin held through it), the operators\' view says reachable from the next poll, with no page; the next page renders the survey', async () => {
  test.setTimeout(120_000);
  // The shell's first fetch of each manifest failed (held past its deadline).
  await expect.poll(async () => (await remotesHealth()).map((remote) => remote.reachable), { timeout: 60_000 }).toEqual(REMOTES.map(() => false));
  for (const origin of held.values()) origin.release();
  await expect.poll(async () => (await remotesHealth()).map((remote) => remote.reachable), { timeout: 30_000 }).toEqual(REMOTES.map(() => true));
  expect(pagesAsked).toBe(0);
  // The poll warmed the builds up: the first page renders the survey on the server.
  expect(await serverRendersSurvey()).toBe(true);
});

/** sha256(visitor, remote, canary version) → [0, 1): the shell's assignment (an independent oracle). */
const position = (visitor: string, version: string) => createHash('sha256').update(`${visitor}\n${REMOTE}\n${version}`).digest().readUIntBE(0, 6) / 2 ** 48;

/** One page view by a fresh browser as `visitor`; waits for its page report; the survey island's state and the build its scripts came from. */
async function view(visitor: string): Promise<{ state: string | null; version: string | undefined; serverRendered: boolean }> {
  pagesAsked += 1;
  const context = await browser.newContext();
  await context.addCookies([{ name: 'khs_visitor', value: visitor, url: stack.url }]);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().startsWith(held.get(REMOTE)!.url)) scripts.push(request.url());
  });
  const report = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/island-failures', { timeout: 30_000 });
  const response = await page.goto(articleUrl());
  const serverRendered = (await response!.text()).includes('khs-survey--interactive');
  await page.locator(SURVEY).scrollIntoViewIfNeeded();
  await islandsSettled(page);
  await report;
  const state = await page.locator(SURVEY).getAttribute('data-island-state');
  await context.close();
  return { state, version: scripts.map((url) => /\/versions\/([^/]+)\//.exec(url)?.[1]).find(Boolean), serverRendered };
}

test('a restarted shell with the survey origin held and a canary started before any page: once the origin answers, both sides render the survey and the canary is judged', async () => {
  test.setTimeout(240_000);
  const survey = held.get(REMOTE)!;
  const target = stack.originDirs[REMOTE]!;
  const stable = JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;
  // A canary whose browser code breaks (its server build renders as the stable one does): the rule must end it.
  const brokenDist = remoteBuildVariant(REMOTE, (dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'mf-manifest.json'), 'utf8')) as { exposes: { name: string; assets: { js: { sync: string[] } } }[] };
    for (const file of manifest.exposes.find((expose) => expose.name === 'Survey')!.assets.js.sync) {
      writeFileSync(path.join(dir, file), "throw new Error('recovery e2e: this canary breaks in the browser');\n");
    }
  });
  const broken = path.basename(brokenDist);

  survey.hold();
  const restarted = stack.nextStart('shell');
  process.kill(stack.shellPid(), 'SIGKILL');
  await restarted;
  await expect.poll(async () => (await surveyHealth()).reachable, { timeout: 60_000 }).toBe(false);
  const started = await run('npm', ['run', '--silent', 'deploy', '-w', REMOTE, '--', '--to', target, '--from', brokenDist, '--canary', '50'], { cwd: REPO_ROOT });
  expect(started.stdout).toContain(`canary for 50 % of visitors`);
  survey.release();

  // No page yet: the shell's own poll brings the remote back, and its canary split is read.
  await expect.poll(async () => (await surveyHealth()).reachable, { timeout: 30_000 }).toBe(true);
  await expect.poll(async () => (await surveyHealth()).canary?.state, { timeout: 30_000 }).toBe('running');

  // Visitors on each side, alternately, until the rule has judged the canary.
  const visitors = { stable: [] as string[], canary: [] as string[] };
  while (visitors.stable.length < 8 || visitors.canary.length < 8) {
    const id = randomBytes(16).toString('base64url');
    const side = position(id, broken) < 0.5 ? 'canary' : 'stable';
    if (visitors[side].length < 8) visitors[side].push(id);
  }
  let ended: NonNullable<RemoteHealth['canary']>['ended'] = null;
  for (let round = 0; round < 8 && !ended; round++) {
    const onStable = await view(visitors.stable[round]!);
    expect(onStable).toEqual({ state: 'mounted', version: stable, serverRendered: true });
    const onCanary = await view(visitors.canary[round]!);
    // The server build renders (the remote came back); the browser code of the canary breaks, until the rule ends it.
    expect(onCanary.serverRendered).toBe(true);
    if (onCanary.version === broken) expect(onCanary.state).toBe('failed');
    ended = (await surveyHealth()).canary!.ended;
  }
  if (!ended) await expect.poll(async () => (ended = (await surveyHealth()).canary!.ended), { timeout: 15_000 }).not.toBeNull();
  expect(ended).toMatchObject({ outcome: 'rolled-back', reason: expect.stringMatching(/^canary fails 100\.0 % of \d+ views, stable 0\.0 % of \d+: worse than stable/) });
  const health = (await surveyHealth()).canary!;
  expect(health.stable).toMatchObject({ version: stable, failures: 0 });
  expect(health.canary.version).toBe(broken);
  expect(health.canary.views).toBeGreaterThanOrEqual(MIN_CANARY_VIEWS);
  expect(logs.filter((line) => /is already registered/.test(line))).toEqual([]);
});
