// Streamed pages (issue 37): with one remote's server render slowed by a test variant, the page's
// head and header go out before the slow island's HTML, which follows later in the same answer,
// directly and through nginx; the page hydrates without a mismatch, and read without scripts it
// reads in order. The team services' pages (a form page, the contact form; a shared page, a shared
// watchlist) stream the same way, with mf-widgets' server renders slowed by a second variant.
// Asserted on the order of the chunks received, never on times: the slow islands may only render
// once this test received the header (the variants' renders wait for a gate the test opens then),
// so a shell that held the page until its islands rendered could not pass.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { listArticles, listSurveys } from '@khs/content';
import type { Page } from '@playwright/test';
import { expect, islandsSettled, test, wakeInteractionIslands } from '../harness/fixtures.js';
import { holdPort, STACK_START_TIMEOUT_MS, startStack, type HeldPort, type Stack } from '../harness/stack.js';
import { buildSlowSurvey, SLOW_SURVEY_GATE_ENV, SLOW_SURVEY_MARKER } from '../harness/slowSurvey.js';
import { buildSlowWidgets, SLOW_WIDGETS_GATE_ENV, SLOW_WIDGETS_MARKER } from '../harness/slowWidgets.js';
import { scaleOutUnavailable, startNginx, type RunningNginx } from '../harness/scaleOut.js';

/** How long the variant's server render of the survey waits before its gate: past the head budget. */
const SLOW_RENDER_MS = 300;
/** How long the gate holds a render at most (it breaks a deadlock: a shell that does not stream fails the test, it does not hang it). */
const GATE_HOLD_LIMIT_MS = 4000;
/** The island budget of this spec's shell: the slow render must finish on a loaded machine too. */
const ISLAND_BUDGET_MS = 8000;
const SLOW_MARKER = SLOW_SURVEY_MARKER;

const surveys = new Set(listSurveys().map((survey) => survey.formHandle));
const article = listArticles().find((candidate) => candidate.surveyHandle && surveys.has(candidate.surveyHandle));
if (!article) throw new Error('no article with a survey in the seeded content');

let stack: Stack;
let variantWork: string | undefined;
let widgetsVariantWork: string | undefined;
/** The path of a watchlist shared while the stack runs (a page the watchlist service declares). */
let sharedWatchlistPath: string;
let nginx: RunningNginx | undefined;
let nginxDir: string | undefined;
let proxyPort: HeldPort | undefined;
let gate: Gate;

/**
 * The variant's render asks the gate before it renders: answered at once unless `hold()` was
 * called, then when `open()` is (or after `GATE_HOLD_LIMIT_MS`, counted in `timedOut`).
 */
interface Gate {
  url: string;
  hold(): void;
  open(): void;
  timedOut: number;
  close(): Promise<void>;
}

async function startGate(): Promise<Gate> {
  let held: Promise<void> | undefined;
  let release: () => void = () => {};
  const waiting = new Set<NodeJS.Timeout>();
  const server = createServer((_request, response) => {
    const answer = () => response.end('open');
    if (!held) return answer();
    const timer = setTimeout(() => {
      state.timedOut += 1;
      waiting.delete(timer);
      answer();
    }, GATE_HOLD_LIMIT_MS);
    waiting.add(timer);
    void held.then(() => {
      clearTimeout(timer);
      waiting.delete(timer);
      answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: Gate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gate`,
    timedOut: 0,
    hold: () => {
      held = new Promise((resolve) => (release = resolve));
    },
    open: () => {
      release();
      held = undefined;
    },
    close: () => {
      for (const timer of waiting) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}

test.beforeAll(async () => {
  test.setTimeout(STACK_START_TIMEOUT_MS + 240_000);
  // The proxy's port is the site's public origin (its links); held until nginx inherits it.
  proxyPort = scaleOutUnavailable() ? undefined : await holdPort();
  gate = await startGate();
  // The shell's own head budget (the harness raises it for other specs), the slow island within its budget.
  stack = await startStack({
    env: { PAGE_HEAD_BUDGET_MS: '', ISLAND_RENDER_BUDGET_MS: String(ISLAND_BUDGET_MS), [SLOW_SURVEY_GATE_ENV]: gate.url, [SLOW_WIDGETS_GATE_ENV]: gate.url },
  });
  const variant = await buildSlowSurvey(SLOW_RENDER_MS);
  variantWork = variant.work;
  stack.serveRemote('mf-survey', variant.dist);
  const widgetsVariant = await buildSlowWidgets(SLOW_RENDER_MS);
  widgetsVariantWork = widgetsVariant.work;
  stack.serveRemote('mf-widgets', widgetsVariant.dist);
  // The shell renders with the variants once it saw their manifests.
  await expect.poll(async () => (await (await fetch(new URL(article.url, stack.url))).text()).includes(SLOW_MARKER), { timeout: 60_000 }).toBe(true);
  await expect.poll(async () => (await (await fetch(new URL('/contact', stack.url))).text()).includes(SLOW_WIDGETS_MARKER), { timeout: 60_000 }).toBe(true);
  sharedWatchlistPath = await shareWatchlist(article);
  if (proxyPort) {
    nginxDir = mkdtempSync(path.join(os.tmpdir(), 'khs-streaming-nginx-'));
    nginx = await startNginx({ upstreams: [stack.url.replace(/\/$/, '')], dir: nginxDir, port: proxyPort });
  }
});

test.afterAll(async () => {
  await nginx?.stop();
  await proxyPort?.close();
  if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
  await stack?.close();
  await gate?.close();
  if (variantWork) rmSync(variantWork, { recursive: true, force: true });
  if (widgetsVariantWork) rmSync(widgetsVariantWork, { recursive: true, force: true });
});

/** Shares a watchlist of `saved` as a browser does (a CSRF token, then the watchlist call); its sharing URL's path. */
async function shareWatchlist(saved: { id: string; title: string }): Promise<string> {
  const tokenAnswer = await fetch(new URL('/actions/blitz/csrf/token', stack.url));
  const cookie = tokenAnswer.headers.getSetCookie().map((setCookie) => setCookie.split(';')[0]).join('; ');
  const token = await tokenAnswer.text();
  const shared = await fetch(new URL('/api/watchlist', stack.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
    body: JSON.stringify({ storedWatchlist: { articles: { [saved.id]: { title: saved.title } } } }),
  });
  expect(shared.status).toBe(200);
  return new URL(((await shared.json()) as { storedWatchlist: { sharingUrl: string } }).storedWatchlist.sharingUrl).pathname;
}

/**
 * The answer to a GET as its body arrived: the decoded text of each chunk in order, and the
 * headers. The gate is held while it comes, and opened once the header (`</header>`) arrived.
 */
function chunksOf(url: string, encoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; chunks: string[] }> {
  gate.hold();
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      const coding = response.headers['content-encoding'];
      const body: Readable = coding === 'br' ? response.pipe(createBrotliDecompress()) : coding === 'gzip' ? response.pipe(createGunzip()) : response;
      const chunks: string[] = [];
      body.on('data', (chunk: Buffer) => {
        chunks.push(String(chunk));
        if (chunks.join('').includes('</header>')) gate.open();
      });
      body.on('end', () => {
        gate.open();
        resolve({ headers: response.headers, chunks });
      });
      body.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Where in the chunks each landmark first appears (the index of the chunk that completes it). */
function chunkWhere(chunks: string[], text: string): number {
  let seen = '';
  for (const [index, chunk] of chunks.entries()) {
    seen += chunk;
    if (seen.includes(text)) return index;
  }
  return -1;
}

/** A page's slow island: the marker its slow render writes, the island, and whether the footer follows it (not at `page.end`). */
interface SlowIsland {
  marker: string;
  island: string;
  beforeFooter: boolean;
}

const SLOW_SURVEY: SlowIsland = { marker: SLOW_MARKER, island: 'mf-survey/Survey', beforeFooter: true };

function expectHeadAndHeaderFirst(chunks: string[], slow: SlowIsland = SLOW_SURVEY): void {
  const html = chunks.join('');
  // The island rendered because the header had arrived, not because the gate gave up waiting.
  expect(gate.timedOut, 'renders that waited for the header in vain').toBe(0);
  const slowIsland = chunkWhere(chunks, slow.marker);
  expect(slowIsland, 'the slow island is server-rendered in the same answer').toBeGreaterThan(0);
  // The head (with the slow island's styles, named before it rendered) and the whole header came in an earlier chunk.
  expect(chunkWhere(chunks, '</head>')).toBeLessThan(slowIsland);
  expect(chunkWhere(chunks, '</header>')).toBeLessThan(slowIsland);
  expect(chunkWhere(chunks, '<h1')).toBeLessThan(slowIsland);
  // Document order: the slow HTML sits in its island, the footer after it (or before it, at the page's end).
  expect(html.indexOf(slow.marker)).toBeGreaterThan(html.indexOf(`data-island="${slow.island}"`));
  if (slow.beforeFooter) expect(html.indexOf('<footer')).toBeGreaterThan(html.indexOf(slow.marker));
  else expect(html.indexOf('<footer')).toBeLessThan(html.indexOf(slow.marker));
  expect(html.trimEnd().endsWith('</html>')).toBe(true);
}

/** Console errors and warnings (React logs hydration mismatches), favicon aside. */
function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if ((message.type() === 'error' || message.type() === 'warning') && !message.location().url.endsWith('/favicon.ico')) problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  return problems;
}

test.describe('streamed pages', () => {
  for (const encoding of ['br', 'gzip', 'identity']) {
    test(`the head and the header arrive before the slow island's HTML, which follows in the same answer (${encoding})`, async () => {
      const { headers, chunks } = await chunksOf(new URL(article.url, stack.url).href, encoding);
      expect(headers['x-accel-buffering']).toBe('no');
      // Streamed past the head budget: shared briefly, without an ETag (it could still have ended degraded).
      expect(headers.etag).toBeUndefined();
      expect(headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=2\b/);
      expectHeadAndHeaderFirst(chunks);
    });
  }

  test('through nginx: each chunk is passed on as it comes, and nginx does not keep a streamed page', async () => {
    test.skip(!nginx, scaleOutUnavailable() ?? '');
    const url = new URL(article.url, nginx!.url).href;
    const first = await chunksOf(url, 'br');
    expectHeadAndHeaderFirst(first.chunks);
    const second = await chunksOf(url, 'br');
    expectHeadAndHeaderFirst(second.chunks);
    expect(second.headers['x-cache-status']).not.toBe('HIT');
  });

  test('the streamed page hydrates every island without a mismatch', async ({ page }) => {
    const problems = consoleProblems(page);
    const response = await page.goto(new URL(article.url, stack.url).href);
    expect(await response?.text()).toContain(SLOW_MARKER);
    await islandsSettled(page);
    await wakeInteractionIslands(page);
    const states = await page.locator('[data-island]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
    expect(states.every((state) => state === 'mounted')).toBe(true);
    const survey = page.locator('[data-island="mf-survey/Survey"]');
    await survey.getByRole('radio').first().check();
    await expect(survey.getByRole('radio').first()).toBeChecked();
    expect(problems).toEqual([]);
  });

  test('without scripts the streamed page reads in order: header, article, the slow survey in its place, footer', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL(article.url, stack.url).href);
    const survey = page.locator('[data-island="mf-survey/Survey"] form.khs-survey');
    await expect(survey.getByRole('radio').first()).toBeVisible();
    const order = await page.evaluate(() => {
      const landmarks = ['header.site-header', 'h1', '[data-island="mf-survey/Survey"] form', 'footer.site-footer'].map((selector) => document.querySelector(selector));
      return landmarks.every((element, index) => element && (index === 0 || landmarks[index - 1]!.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING));
    });
    expect(order).toBe(true);
    await context.close();
  });
});

/** The team services' pages, each with the island of mf-widgets' slow variant that shows it streams. */
const TEAM_PAGES = [
  {
    name: 'the contact form (a form page)',
    path: () => '/contact',
    // The attachment field, inside the form, before the send button and the footer.
    slow: { marker: SLOW_WIDGETS_MARKER, island: 'mf-widgets/FileField', beforeFooter: true },
    // The form's own rule, streamed or whole: it holds a fresh token, its cookie is set, nothing keeps it.
    expectCacheHeaders: (headers: Record<string, string | string[] | undefined>) => {
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['set-cookie']).toBeDefined();
    },
  },
  {
    name: 'a shared watchlist (a shared service page)',
    path: () => sharedWatchlistPath,
    // PageWidgets, in the `page.end` slot after the footer: the service's content came before it.
    slow: { marker: SLOW_WIDGETS_MARKER, island: 'mf-widgets/PageWidgets', beforeFooter: false },
    // Streamed past the head budget: shared briefly, without an ETag, as the shell's own pages.
    expectCacheHeaders: (headers: Record<string, string | string[] | undefined>) => {
      expect(headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=2\b/);
      expect(headers.etag).toBeUndefined();
    },
  },
];

test.describe("streamed team services' pages", () => {
  for (const teamPage of TEAM_PAGES) {
    test(`${teamPage.name}: the head and the header arrive before the slow island's HTML, which follows in the same answer`, async () => {
      const { headers, chunks } = await chunksOf(new URL(teamPage.path(), stack.url).href, 'br');
      expect(headers['x-accel-buffering']).toBe('no');
      teamPage.expectCacheHeaders(headers);
      expectHeadAndHeaderFirst(chunks, teamPage.slow);
    });
  }

  test('the streamed contact form hydrates without a mismatch, and without scripts it reads in order', async ({ page, browser }) => {
    const problems = consoleProblems(page);
    const response = await page.goto(new URL('/contact', stack.url).href);
    expect(await response?.text()).toContain(SLOW_WIDGETS_MARKER);
    await islandsSettled(page);
    await wakeInteractionIslands(page);
    const states = await page.locator('[data-island]').evaluateAll((elements) => elements.map((element) => element.getAttribute('data-island-state')));
    expect(states.every((state) => state === 'mounted')).toBe(true);
    expect(problems).toEqual([]);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const withoutScripts = await context.newPage();
    await withoutScripts.goto(new URL('/contact', stack.url).href);
    await expect(withoutScripts.locator('[data-island="mf-widgets/FileField"] input[type="file"]')).toHaveCount(1);
    const order = await withoutScripts.evaluate(() => {
      const landmarks = ['header.site-header', 'h1', '[data-island="mf-widgets/FileField"] input[type="file"]', 'form.contact-form button[type="submit"]', 'footer.site-footer'].map((selector) =>
        document.querySelector(selector),
      );
      return landmarks.every((element, index) => element && (index === 0 || landmarks[index - 1]!.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING));
    });
    expect(order).toBe(true);
    await context.close();
  });
});
