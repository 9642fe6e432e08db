// Contracts skew: mf-watchlist built against the previous minor (N−1), the next minor (N+1, which
// adds an optional event field and sends it) and the next major of contracts, each deployed next to
// the current shell and remotes. The minors must work (hydration, badge, events across remotes);
// the major must be refused cleanly, on the server and in the browser, with KHS-ISLAND-004.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { listArticles } from '@khs/content';
import { CONTRACTS_VERSION, examplePageConfig } from 'contracts';
import type { Page } from '@playwright/test';
import { expect, islandFailuresIn, islandsSettled, test, wakeInteractionIslands } from '../harness/fixtures.js';
import { logText, startStack, type Stack } from '../harness/stack.js';
import { buildRemoteAgainst, contractsCopy, replaceInFile } from '../harness/contractsFixtures.js';
import { ISLAND_FAILURE_REPORT_PATH } from '../../shell/src/shared/islandFailureReport.js';

const { i18n } = examplePageConfig();
const [major, minor] = CONTRACTS_VERSION.split('.').map(Number) as [number, number];
const VERSIONS = { older: `${major}.${minor - 1}.0`, newer: `${major}.${minor + 1}.0`, nextMajor: `${major + 1}.0.0` };
const article = listArticles()[0]!;
const PAGE_BUS_KEY = 'khs.contracts.page-bus.v1';

/** Marks a fixture's watchlist button (server and browser build), so a test sees which build rendered it. */
function markBuild(dir: string, version: string): void {
  replaceInFile(path.join(dir, 'src/components/WatchlistButton.tsx'), '<span className="khs-watchlist-button">', `<span className="khs-watchlist-button" data-contracts-fixture="${version}">`);
}

interface Fixture {
  dist: string;
  /** The file of the fixture's own copy of contracts (its shared fallback chunk). */
  contractsChunk: string;
}

const fixtures: Partial<Record<keyof typeof VERSIONS, Fixture>> = {};
const cleanup: string[] = [];
const shellLog: string[] = [];
let stack: Stack;

function fixture(dist: string): Fixture {
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
  const shared = manifest.shared.find((entry: { name: string }) => entry.name === 'contracts');
  return { dist, contractsChunk: shared.assets.js.sync[0] };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // N−1: an older contracts, and the remote as it was then (no `source` in watchlist-added yet).
  const older = contractsCopy(VERSIONS.older);
  cleanup.push(older);
  fixtures.older = fixture(
    buildRemoteAgainst('mf-watchlist', older, (dir) => {
      markBuild(dir, VERSIONS.older);
      // The watchlist buttons (React component and DOM binding) send what this file says; the screen
      // toggles through the same connector.
      replaceInFile(path.join(dir, 'src/connectors/watchlistButtonEvent.ts'), "{ source: 'mf-watchlist/WatchlistButton' }", '{}');
      replaceInFile(path.join(dir, 'src/hooks/useWatchlistScreen.ts'), "{ source: 'mf-watchlist/WatchlistScreen' }", '{}');
      replaceInFile(path.join(dir, 'src/components/watchlist-screen/SharedWatchlistImport.tsx'), /, source: 'mf-watchlist\/\w+'/, '');
    }),
  );
  // N+1: contracts adds an optional `origin` to watchlist-added (with a default), the remote sends it.
  const newer = contractsCopy(VERSIONS.newer, (dir) => {
    replaceInFile(path.join(dir, 'src/events.ts'), '    source?: string;\n  };', "    source?: string;\n    /** Where the visitor toggled it (since the next minor). */\n    origin?: string;\n  };");
    replaceInFile(path.join(dir, 'src/events.ts'), "'watchlist-added': { source: '' },", "'watchlist-added': { source: '', origin: 'unknown' },");
    replaceInFile(path.join(dir, 'src/eventPayloads.ts'), 'optional: { source: isString }', 'optional: { source: isString, origin: isString }');
  });
  cleanup.push(newer);
  fixtures.newer = fixture(
    buildRemoteAgainst('mf-watchlist', newer, (dir) => {
      markBuild(dir, VERSIONS.newer);
      replaceInFile(path.join(dir, 'src/connectors/watchlistButtonEvent.ts'), "source: 'mf-watchlist/WatchlistButton'", "source: 'mf-watchlist/WatchlistButton', origin: 'button'");
    }),
  );
  // Next major: the same source, built against a contracts that says it is the next major.
  const nextMajor = contractsCopy(VERSIONS.nextMajor);
  cleanup.push(nextMajor);
  fixtures.nextMajor = fixture(buildRemoteAgainst('mf-watchlist', nextMajor));
  for (const entry of Object.values(fixtures)) cleanup.push(path.dirname(entry.dist));
  // Every server failure line is written (no once-a-minute limit), so each scenario sees its own.
  stack = await startStack({ log: (line) => shellLog.push(logText(line)), env: { REMOTE_FAILURE_LOG_INTERVAL_MS: '1', OPERATOR_TOKEN } });
});

test.afterAll(async () => {
  // SKEW_DEBUG=1 prints what the stack logged (the shell's failure lines), to see why a scenario failed.
  if (process.env.SKEW_DEBUG) console.log(shellLog.join('\n'));
  await stack?.close();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** Opens the operators' view (`/health/remotes`) for this stack. */
const OPERATOR_TOKEN = 'skew-test-operator-token-0123456789';

const articleHtml = async () => (await fetch(new URL(article.url, stack.url))).text();

/**
 * Serves `dist` as mf-watchlist (its own `dist` when undefined) and waits until the shell's
 * server renders with it: `rendered` holds for the article's HTML (pages are requested meanwhile,
 * which also makes a remote the shell could not reach at start load again).
 */
async function deploy(dist: string | undefined, rendered: (html: string) => boolean): Promise<void> {
  stack.serveRemote('mf-watchlist', dist);
  await expect.poll(async () => rendered(await articleHtml()), { timeout: 30_000, intervals: [500] }).toBe(true);
  // The page head's hints name the remote's files from the manifest the shell last read; wait until
  // every one of them exists at the origin (the shell may still hint the previous build's entry).
  await expect
    .poll(async () => {
      const hinted = [...(await articleHtml()).matchAll(/<link[^>]+rel="preload"[^>]+href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
      const ours = hinted.filter((href) => href.startsWith(stack.remotes['mf-watchlist']));
      const statuses = await Promise.all(ours.map(async (href) => (await fetch(href)).status));
      return statuses.every((status) => status === 200);
    }, { timeout: 30_000, intervals: [500] })
    .toBe(true);
}

/**
 * What a page did over the wire and in its console. `failures`: the island failures its beacons to
 * the shell carried (each page also reports the builds it ran, one page view each: that alone is no
 * failure). Beacon bodies are only visible to a route.
 */
async function watch(page: Page) {
  const seen = { requests: [] as string[], failures: [] as Array<Record<string, unknown>>, errors: [] as string[] };
  page.on('request', (request) => {
    seen.requests.push(request.url());
  });
  await page.route(`**${ISLAND_FAILURE_REPORT_PATH}`, async (route) => {
    seen.failures.push(...islandFailuresIn(JSON.parse(route.request().postDataBuffer()?.toString() ?? 'null')));
    await route.continue();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  // Which resource failed: the console line alone does not say.
  page.on('response', (response) => {
    if (response.status() >= 400) seen.errors.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  return seen;
}

/** Records every watchlist-added payload as sent, on the page's one bus (the transport every copy shares). */
async function recordWatchlistAdded(page: Page): Promise<void> {
  await page.evaluate((key) => {
    const bus = (globalThis as unknown as Record<symbol, { on(type: string, handler: (payload: unknown) => void): void }>)[Symbol.for(key)]!;
    const seen: unknown[] = [];
    (window as unknown as { watchlistAdded: unknown[] }).watchlistAdded = seen;
    bus.on('watchlist-added', (payload) => seen.push(payload));
  }, PAGE_BUS_KEY);
}

/** The minors: the article works as with the current build, and the event reaches mf-search. */
async function worksOnTheArticlePage(page: Page, which: 'older' | 'newer'): Promise<unknown[]> {
  // Insights consent: mf-search reports saving an article as a conversion (a cross-remote event).
  await page.addInitScript(() => localStorage.setItem('khs:consent', JSON.stringify({ insights: true, tracking: false })));
  const seen = await watch(page);
  await page.goto(new URL(article.url, stack.url).href);
  await islandsSettled(page);
  // The header search and the contents link wait for the reader: hydrate them too, so every island is checked.
  await wakeInteractionIslands(page);
  const states = await page.locator('[data-island]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
  // Mounted, or empty: a survey on an article without one has nothing to show (its slice said so on the server).
  expect(states.every((state) => state === 'mounted' || state === 'empty')).toBe(true);
  // Server-rendered by the fixture's server build, then bound by its browser build.
  await expect(page.locator(`.article__watchlist [data-contracts-fixture="${VERSIONS[which]}"]`)).toHaveCount(1);
  const button = page.locator('.article__watchlist').getByRole('button', { name: i18n.watchlistAdd });
  await expect(button).toBeEnabled();
  await recordWatchlistAdded(page);
  const conversion = page.waitForRequest(
    (request) => new URL(request.url()).pathname === '/api/insights/events' && (request.postData() ?? '').includes('Article Saved'),
  );
  await button.click();
  await expect(page.locator('.article__watchlist').getByRole('button', { name: i18n.watchlistRemove })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.site-header .khs-watchlist-link__badge')).toHaveText('1');
  const events = ((await conversion).postDataJSON() as { events: Array<{ eventType: string; objectIDs: string[] }> }).events;
  expect(events.find((event) => event.eventType === 'conversion')?.objectIDs).toEqual([article.id]);
  // Semver sharing: the older build uses the page's newer contracts; the newer brings its own copy.
  const ownCopy = seen.requests.some((url) => url.startsWith(stack.remotes['mf-watchlist']) && url.endsWith(`/${fixtures[which]!.contractsChunk}`));
  expect(ownCopy).toBe(which === 'newer');
  expect(seen.errors).toEqual([]);
  expect(seen.failures).toEqual([]);
  return page.evaluate(() => (window as unknown as { watchlistAdded: unknown[] }).watchlistAdded);
}

test.describe('contracts skew of a remote (mf-watchlist)', () => {
  test(`built against contracts N−1 (${VERSIONS.older}): hydrates, the badge counts, its events reach mf-search`, async ({ page }) => {
    await deploy(fixtures.older!.dist, (html) => html.includes(`data-contracts-fixture="${VERSIONS.older}"`));
    const sent = await worksOnTheArticlePage(page, 'older');
    // The older producer sends no `source` (listeners on the current contracts get the default).
    expect(sent).toEqual([{ id: article.id, title: article.title, added: true }]);
  });

  test(`built against contracts N+1 (${VERSIONS.newer}, an extra optional event field): works next to the current remotes`, async ({ page }) => {
    await deploy(fixtures.newer!.dist, (html) => html.includes(`data-contracts-fixture="${VERSIONS.newer}"`));
    const sent = await worksOnTheArticlePage(page, 'newer');
    expect(sent).toEqual([{ id: article.id, title: article.title, added: true, source: 'mf-watchlist/WatchlistButton', origin: 'button' }]);
  });

  test(`built against the next major (${VERSIONS.nextMajor}): refused on the server and in the browser, fallback shown, KHS-ISLAND-004 reported`, async ({ page }) => {
    const from = shellLog.length;
    await deploy(fixtures.nextMajor!.dist, (html) => !html.includes('khs-watchlist-button__toggle'));
    // The server logged the refusal with its code, and rendered the others (the watchlist's placeholders).
    await expect
      .poll(() => shellLog.slice(from).find((line) => line.includes('KHS-ISLAND-004')), { timeout: 10_000 })
      .toMatch(new RegExp(`^\\[shell\\] KHS-ISLAND-004 remote "mf-watchlist" failed on the server \\(stage: compatibility\\): "mf-watchlist" refused: .*contracts ${VERSIONS.nextMajor.replace(/\./g, '\\.')}`));
    const html = await articleHtml();
    expect(html).toContain('khs-search-header');
    expect(html).toContain(`href="/watchlist"`);

    const seen = await watch(page);
    const reports = seen.failures;
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    await expect.poll(() => reports.length).toBe(1);
    const [report] = reports as Array<Record<string, unknown>>;
    expect(report).toMatchObject({ remote: 'mf-watchlist', stage: 'compatibility', code: 'KHS-ISLAND-004', contractsVersion: VERSIONS.nextMajor });
    expect(report!.module).toMatch(/^\.\/Watchlist(Link|Button)$/);

    // The watchlist's islands keep their fallback: the header link without a badge, no button.
    const header = page.locator('.site-header__watchlist');
    await expect(header).toHaveAttribute('data-island-state', 'failed');
    await expect(header.getByRole('link', { name: i18n.watchlistLink })).toHaveAttribute('href', '/watchlist');
    await expect(page.locator('.khs-watchlist-link__badge')).toHaveCount(0);
    await expect(page.locator('.article__watchlist')).toHaveAttribute('data-island-state', 'failed');
    await expect(page.locator('.article__watchlist').getByRole('button')).toHaveCount(0);
    // Its code never ran in the browser (refused at the manifest, before the entry executes).
    expect(await page.evaluate(() => typeof (window as unknown as Record<string, unknown>).mf_watchlist)).toBe('undefined');
    // The rest of the page is fine: every other island mounted; the search box works.
    await wakeInteractionIslands(page);
    const others = await page
      .locator('[data-island]:not([data-island^="mf-watchlist/"])')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((state) => state === 'mounted' || state === 'empty')).toBe(true);
    await page.locator('.site-header').getByRole('combobox').fill('work');
    await expect(page.getByRole('listbox')).toBeVisible();
    // One report per remote and code per page, although several watchlist islands failed.
    await page.waitForTimeout(300);
    expect(reports).toHaveLength(1);
    // The shell counted it: the operators' view shows the browser's refusal next to the server's.
    const counted = async () => {
      const response = await fetch(new URL('/health/remotes.json', stack.url), { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      const body = (await response.json()) as { remotes: Array<{ name: string; contractsVersion?: string; failures: Record<'browser' | 'server', Record<string, number>> }> };
      return body.remotes.find((remote) => remote.name === 'mf-watchlist');
    };
    await expect.poll(async () => (await counted())?.failures.browser['KHS-ISLAND-004'] ?? 0).toBe(1);
    const watchlistHealth = await counted();
    expect(watchlistHealth?.failures.server['KHS-ISLAND-004'] ?? 0).toBeGreaterThan(0);
    expect(watchlistHealth?.contractsVersion).toBe(VERSIONS.nextMajor);
    // The one console line says which code and which remote.
    expect(seen.errors.filter((line) => line.startsWith('[shell]'))).toEqual([
      expect.stringMatching(/^\[shell\] KHS-ISLAND-004 remote "mf-watchlist" failed \(stage: compatibility\)/),
    ]);
  });

  test('back on the current build, the watchlist works again', async ({ page }) => {
    await deploy(undefined, (html) => html.includes('khs-watchlist-button__toggle') && !html.includes('data-contracts-fixture'));
    await page.goto(new URL(article.url, stack.url).href);
    await islandsSettled(page);
    await expect(page.locator('.article__watchlist')).toHaveAttribute('data-island-state', 'mounted');
  });
});
