import { test as base, expect, type Page } from '@playwright/test';
import { startStack, type Stack, type StackOptions } from './stack.js';
import { openPreviews, previewLinks, runningSiteStack, runningSiteUrl } from './runningSite.js';

export interface PageProblems {
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
  /** Responses with status >= 400 (URL and status). */
  failedResponses: string[];
}

/** Records what went wrong on a page, so tests can assert a clean run. */
export function watchPage(page: Page): PageProblems {
  const problems: PageProblems = { errors: [], failedResponses: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(String(error)));
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) {
      problems.failedResponses.push(`${response.status()} ${response.url()}`);
    }
  });
  return problems;
}

/**
 * `stack`: one running site per worker. `problems`: console errors and failed responses of
 * the test's page.
 *
 * The worker's start has no clock of its own (`timeout: 0`): how long it takes is the machine's
 * load (a start's parts wait for a CPU, 20 s quiet, 90–200 s beside other suites), not a fault. It
 * cannot hang either: it ends when every part has reported `listening`, or fails when one exited
 * or its supervisor gave up on it (60 s of the part's own time, not counting its waits for a CPU:
 * tooling/stack README, "Supervision").
 */
export const test = base.extend<{ problems: PageProblems }, { stack: Stack }>({
  stack: [
    async ({}, provideStack) => {
      // Against a running site (E2E_BASE_URL) nothing is started.
      const siteUrl = runningSiteUrl();
      if (siteUrl) return provideStack(runningSiteStack(siteUrl));
      const stack = await startStack();
      await provideStack(stack);
      await stack.close();
    },
    { scope: 'worker', timeout: 0 },
  ],
  // Against a running site, every context of the shared fixtures opens the previews of E2E_PREVIEWS first.
  context: async ({ context }, provideContext) => {
    const siteUrl = runningSiteUrl();
    if (siteUrl) await openPreviews(context, previewLinks(siteUrl));
    await provideContext(context);
  },
  problems: async ({ page }, provideProblems) => {
    await provideProblems(watchPage(page));
  },
});

export { expect };

/**
 * Starts a stack of the test's own (`startStack`) without counting the start against the test's
 * timeout: the timeout is off while it starts (the start is bounded by its parts' events, see
 * `stack` above), then it is the test's own again, the time the start took added. The test's time
 * is its own steps'.
 */
export async function startStackInTest(options: StackOptions = {}): Promise<Stack> {
  const info = test.info();
  const timeout = info.timeout;
  info.setTimeout(0);
  const began = performance.now();
  try {
    return await startStack(options);
  } finally {
    info.setTimeout(timeout === 0 ? 0 : timeout + (performance.now() - began));
  }
}

/**
 * The island failures one beacon to the shell's report path carries: a page report
 * (`{ views?, failures? }`, what the shell's browser runtime sends) or a single failure (still accepted).
 */
export function islandFailuresIn(body: unknown): Array<Record<string, unknown>> {
  if (!body || typeof body !== 'object') return [];
  const report = body as { failures?: unknown; remote?: unknown };
  if (Array.isArray(report.failures)) return report.failures as Array<Record<string, unknown>>;
  return typeof report.remote === 'string' ? [report as Record<string, unknown>] : [];
}

/**
 * Waits until the shell renders `path` with the remotes' server builds, that is until its HTML holds
 * every one of `markers`. Right after a start the shell warms the remotes up in the background, and a
 * page asked for meanwhile gets placeholders (on a busy machine the cold load of a server container
 * does not fit the island render budget), which is the designed behaviour. A test that asserts
 * server markup waits for it first, bounded (default 30 s), instead of depending on the machine's speed.
 */
export async function serverRendered(base: string, path: string, markers: string | readonly string[], timeout = 30_000): Promise<void> {
  const wanted = typeof markers === 'string' ? [markers] : markers;
  await expect
    .poll(async () => {
      const html = await (await fetch(new URL(path, base))).text();
      return wanted.filter((marker) => !html.includes(marker));
    }, { timeout, message: `${path} rendered on the server with ${wanted.join(', ')}` })
    .toEqual([]);
}

/**
 * Waits until every island on the page mounted or gave up (kept its fallback). Islands that
 * hydrate only when seen (`data-island-hydrate="visible"`) wait for a reader: this scrolls to each
 * like one, then back to where the page was. Islands that hydrate on the reader's first
 * interaction count once the shell armed them (`data-island-waiting="interaction"`: their server
 * markup works, a click on them is held and replayed); a test that needs one hydrated touches it.
 */
export async function islandsSettled(page: Page): Promise<void> {
  await scrollToWaitingIslands(page);
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-island]')].every(
      (element) => element.hasAttribute('data-island-state') || element.getAttribute('data-island-waiting') === 'interaction',
    ),
  );
}

/**
 * Hydrates every island still waiting for the reader's interaction (the header search, the
 * article's contents link), as a pointer moving over each would (dispatched: an island whose
 * server render failed may be empty and have no box to hover), then waits until all settled.
 */
export async function wakeInteractionIslands(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const island of document.querySelectorAll('[data-island-waiting="interaction"]')) island.dispatchEvent(new PointerEvent('pointerover'));
  });
  await page.waitForFunction(() => [...document.querySelectorAll('[data-island]')].every((element) => element.hasAttribute('data-island-state')));
}

/** Scrolls each island still waiting to be seen into view (two frames each), then back. */
export async function scrollToWaitingIslands(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const waiting = [...document.querySelectorAll('[data-island-hydrate="visible"]')].filter((element) => !element.hasAttribute('data-island-state'));
    if (waiting.length === 0) return;
    const [x, y] = [window.scrollX, window.scrollY];
    const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const element of waiting) {
      element.scrollIntoView({ block: 'center' });
      await frames();
    }
    window.scrollTo(x, y);
  });
}
