// Issue 16, point 3: one remote is deployed and rolled back with the team's own commands
// (`npm run deploy|rollback -w mf-watchlist`) while the site runs; the next page shows the switch,
// server-rendered and hydrated, with no restart of the shell. Point 5 (server side): the operators'
// view shows the live version, and a real browser beacon is counted.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { listArticles } from '@khs/content';
import { examplePageConfig } from 'contracts';
import { chromium, type Browser, type Page } from '@playwright/test';
import { axeViolations } from '../harness/axe.js';
import { chromiumLaunchOptions } from '../harness/chromium.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { logText, REPO_ROOT, startStack, type Stack } from '../harness/stack.js';
import { VARIANTS_DIR } from '../harness/remoteVariant.js';

const run = promisify(execFile);
const REMOTE = 'mf-watchlist';
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdef';
const { i18n } = examplePageConfig();
const LINK = `[data-island="${REMOTE}/WatchlistLink"]`;
const RELEASE_MARKER = 'data-release="v2"';

interface RemoteHealthJson {
  name: string;
  buildVersion: string | null;
  reachable: boolean | null;
  deployedAt: string | null;
  changedAt: string | null;
  failures: { total: number; browser: Record<string, number>; server: Record<string, number> };
}

let stack: Stack;
let browser: Browser;
let work: string;
let target: string;
let variantDist: string;
let v1: string;
let v2: string;
/** Every line the site's processes printed. */
const logs: string[] = [];

const articleUrl = () => new URL(listArticles()[0]!.url, stack.url).href;
const serverHtml = async () => (await fetch(articleUrl())).text();
const liveVersion = () => JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;
/** The team's own commands, as a person runs them from the repository root. */
const npmRun = (script: 'deploy' | 'rollback', ...args: string[]) =>
  run('npm', ['run', '--silent', script, '-w', REMOTE, '--', '--to', target, ...args], { cwd: REPO_ROOT });

async function health(): Promise<RemoteHealthJson> {
  const response = await fetch(new URL('/health/remotes.json', stack.url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { remotes: RemoteHealthJson[] };
  return body.remotes.find((remote) => remote.name === REMOTE)!;
}

/** Console errors and warnings (hydration mismatches are warnings) and the remote's script URLs of one page load. */
function watch(page: Page) {
  const problems: string[] = [];
  const scripts: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && request.url().startsWith(stack.remotes[REMOTE])) scripts.push(request.url());
  });
  return { problems, scripts };
}

/** Loads the article page in a fresh page and checks the watchlist link runs `version`'s build. */
async function expectPageRuns(version: string, marked: boolean): Promise<void> {
  const page = await browser.newPage();
  const { problems, scripts } = watch(page);
  await page.goto(articleUrl());
  const link = page.locator(LINK);
  // Server-rendered: the marker is in the HTML before hydration (checked on the island's own markup).
  await islandsSettled(page);
  await expect(link).toHaveAttribute('data-island-state', 'mounted');
  await expect(link.locator('[data-release="v2"]')).toHaveCount(marked ? 1 : 0);
  if (marked) await expect(link.getByText('v2', { exact: true })).toBeVisible();
  // The browser ran this version's code, from its immutable folder.
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((url) => url.startsWith(`${stack.remotes[REMOTE]}/versions/${version}/`)), scripts.join('\n')).toBe(true);
  expect(scripts.some((url) => /\/remoteEntry\.[0-9a-f]{8}\.js$/.test(url))).toBe(true);
  // A client-side update renders with the same build: the marker stays (or stays away).
  await page.getByRole('button', { name: i18n.watchlistAdd }).first().click();
  await expect(link.locator('.khs-watchlist-link__badge')).toHaveText('1');
  await expect(link.locator('[data-release="v2"]')).toHaveCount(marked ? 1 : 0);
  expect(problems).toEqual([]);
  await page.close();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  mkdirSync(VARIANTS_DIR, { recursive: true });
  work = mkdtempSync(path.join(VARIANTS_DIR, 'deploy-'));
  // v2: mf-watchlist built from a copy of its source whose header link shows "v2".
  const source = path.join(work, 'mf-watchlist-v2');
  for (const entry of ['src', 'package.json', 'rspack.config.mjs', 'tsconfig.json', 'slice.json']) {
    cpSync(path.join(REPO_ROOT, REMOTE, entry), path.join(source, entry), { recursive: true });
  }
  const component = path.join(source, 'src/components/WatchlistLink.tsx');
  const original = readFileSync(component, 'utf8');
  const changed = original.replace('<span>{label}</span>', `<span>{label}</span><span ${RELEASE_MARKER}>v2</span>`);
  expect(changed).not.toBe(original);
  writeFileSync(component, changed);
  await run(path.join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--mode', 'production'], { cwd: source });
  variantDist = path.join(source, 'dist');
  expect(existsSync(path.join(variantDist, 'mf-manifest.json'))).toBe(true);

  target = path.join(work, 'origins', REMOTE);
  stack = await startStack({ deployedOrigins: path.join(work, 'origins'), env: { OPERATOR_TOKEN }, log: (line) => logs.push(logText(line)) });
  browser = await chromium.launch(chromiumLaunchOptions());
  v1 = liveVersion();
  v2 = JSON.parse(readFileSync(path.join(variantDist, 'mf-manifest.json'), 'utf8')).metaData.buildVersion;
  expect(v2).not.toBe(v1);
  // The shell renders the remotes on the server once it has warmed them up after its start.
  await expect.poll(async () => (await serverHtml()).includes('khs-watchlist-link__badge'), { timeout: 20_000 }).toBe(true);
});

test.afterAll(async () => {
  await browser?.close();
  await stack?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('deploy v2 of a remote: the running site shows it on the server and in the browser; roll back: v1 again, no restart', async () => {
  test.setTimeout(120_000);
  expect(stack.originDirs[REMOTE]).toBe(target);
  expect(await serverHtml()).not.toContain(RELEASE_MARKER);
  await expectPageRuns(v1, false);

  const deployed = await npmRun('deploy', '--from', variantDist);
  expect(deployed.stdout).toContain(`${REMOTE}: ${v2} published and live in ${target} (was ${v1})`);
  expect(liveVersion()).toBe(v2);
  // The shell's server polls the manifest: within seconds its pages render v2.
  const switchedAt = Date.now();
  await expect.poll(async () => (await serverHtml()).includes(RELEASE_MARKER), { timeout: 15_000 }).toBe(true);
  const pickupMs = Date.now() - switchedAt;
  console.log(`[deploy-rollback] the shell's server rendered v2 ${pickupMs} ms after the switch`);
  await expectPageRuns(v2, true);
  expect(await health()).toMatchObject({ buildVersion: v2, reachable: true });

  const rolledBack = await npmRun('rollback');
  expect(rolledBack.stdout).toContain(`${REMOTE}: rolled back to ${v1} in ${target} (was ${v2})`);
  expect(liveVersion()).toBe(v1);
  await expect.poll(async () => (await serverHtml()).includes(RELEASE_MARKER), { timeout: 15_000 }).toBe(false);
  await expectPageRuns(v1, false);
  expect(await health()).toMatchObject({ buildVersion: v1, reachable: true });

  // Both versions stay published; the shell process is the one that started (no restart).
  expect(existsSync(path.join(target, 'versions', v2, 'mf-manifest.json'))).toBe(true);
  const record = JSON.parse(readFileSync(path.join(target, 'deployments.json'), 'utf8')) as { history: { action: string; version: string; at: string }[] };
  expect(record.history.map((entry) => `${entry.action} ${entry.version}`)).toEqual([`deploy ${v1}`, `deploy ${v2}`, `rollback ${v1}`]);
  // The operators' view says when the live build went live: the rollback's switch.
  expect((await health()).deployedAt).toBe(record.history.at(-1)!.at);
  expect(await Promise.race([stack.shellExit.then(() => 'exited'), new Promise((resolve) => setTimeout(() => resolve('running'), 10))])).toBe('running');
  // Each switch replaced the remote's registration the runtime's supported way, without its warning (issue 35).
  expect(logs.filter((line) => /is already registered/.test(line))).toEqual([]);
  expect(logs.filter((line) => line.includes(`remote "${REMOTE}" has a new build`))).toHaveLength(2);
});

test('deploying a different build under a published version is refused, and the live version stays', async () => {
  // A copy of v2 with one file changed but the same build version.
  const tampered = path.join(work, 'tampered');
  cpSync(variantDist, tampered, { recursive: true });
  writeFileSync(path.join(tampered, 'server', 'remoteEntry.js'), '/* changed */\n' + readFileSync(path.join(tampered, 'server', 'remoteEntry.js'), 'utf8'));
  const refused = await npmRun('deploy', '--from', tampered).catch((error: { code: number; stderr: string }) => error);
  expect(refused).toMatchObject({ code: 1 });
  expect((refused as { stderr: string }).stderr).toContain(`version ${v2} is already published`);
  expect(liveVersion()).toBe(v1);
});

test("the operators' view: a browser's beacon is counted, the page is readable and axe-clean, and closed without the token", async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(stack.url);
  // What the shell's browser runtime does when an island fails: a same-origin beacon, no CSRF token.
  const queued = await page.evaluate(
    ([remote]) =>
      navigator.sendBeacon('/api/island-failures', JSON.stringify({ remote, module: './WatchlistLink', stage: 'entry', code: 'KHS-ISLAND-002', remoteVersion: 'x' })),
    [REMOTE],
  );
  expect(queued).toBe(true);
  await expect.poll(async () => (await health()).failures.browser['KHS-ISLAND-002'] ?? 0).toBe(1);

  // The token only for the operators' page (not sent to the remotes' origins the site page uses).
  await page.setExtraHTTPHeaders({ authorization: `Bearer ${OPERATOR_TOKEN}` });
  const response = await page.goto(new URL('/health/remotes', stack.url).href);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Remotes' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(REMOTE) });
  await expect(row.getByRole('cell').nth(2)).toContainText(v1);
  await expect(row).toContainText('KHS-ISLAND-002: 1');
  expect(await axeViolations(page)).toEqual([]);
  await context.close();

  const anonymous = await fetch(new URL('/health/remotes', stack.url));
  expect(anonymous.status).toBe(401);
  expect(await anonymous.text()).not.toContain(v1);
});
