import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultArticlesDir, previewPath } from '@khs/content';
import { DEFAULT_SEARCH_INDEX_NAME } from 'contracts';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { axeViolations } from '../harness/axe.js';
import { expect, islandsSettled, test } from '../harness/fixtures.js';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER } from '@khs/team-service/edge';
import { logText, REPO_ROOT, SEARCH_API_KEY, serviceEdgeKey, startStack, type Stack } from '../harness/stack.js';

// Editors' Markdown files reach the running site without a restart: the shell's content store,
// the search slice's indexer and the watchlist service all watch CONTENT_DIR (here a temporary copy of the seeded files,
// never the checkout's folder).

const PREVIEW_SECRET = 'e2e-preview-secret-0123456789abcdef';
/** What the issue promises: a saved file is live within 5 s. */
const LIVE_WITHIN_MS = 5000;
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

function articleFile(headline: string, body: string, extra = '', date = YESTERDAY): string {
  return `---\nheadline: ${headline}\ntitle: ${headline}\nintro: An article written during the test.\ntopic: [Coaching]\ndate: ${date}\nimage: /content-images/default.svg\nimageAlt: A grey placeholder\ncta: Read more\n${extra}---\n\n${body}\n`;
}

/** A search as browsers send it (search-only key): the number of hits and their headlines. */
async function search(stack: Stack, q: string): Promise<{ found: number; headlines: string[] }> {
  const response = await fetch(`${stack.searchUrl}/multi_search?x-typesense-api-key=${SEARCH_API_KEY}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ searches: [{ collection: DEFAULT_SEARCH_INDEX_NAME, q, query_by: 'title,headline,intro,content', per_page: 20 }] }),
  });
  const body = (await response.json()) as { results: { found: number; hits: { document: { headline: string } }[] }[] };
  const result = body.results[0]!;
  return { found: result.found, headlines: result.hits.map((hit) => hit.document.headline) };
}

/** What is left of the 5 s since `since` (a file written): every check of one change shares them. */
/** The ids the running watchlist service resolves of `ids` (called as the shell's proxy calls it). */
async function watchlistResolves(stack: Stack, ids: string[]): Promise<string[]> {
  const response = await fetch(`${stack.serviceUrl('watchlist')}/api/watchlist`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', [EDGE_KEY_HEADER]: serviceEdgeKey(stack, 'watchlist'), [LINK_ORIGIN_HEADER]: stack.url.replace(/\/$/, '') },
    body: JSON.stringify({ storedWatchlist: { articles: Object.fromEntries(ids.map((id) => [id, { title: id }])) } }),
  });
  expect(response.status).toBe(200);
  return Object.keys(((await response.json()) as { storedWatchlist: { articles: Record<string, unknown> } }).storedWatchlist.articles);
}

function within5s(since: number): { timeout: number; intervals: number[] } {
  return { timeout: Math.max(1, since + LIVE_WITHIN_MS - Date.now()), intervals: [100] };
}

async function searchPageFor(page: Page, stack: Stack, query: string) {
  await page.goto(new URL(`/search?q=${encodeURIComponent(query)}`, stack.url).href);
  await islandsSettled(page);
  const list = page.locator('.khs-search-list');
  await expect(list).toHaveAttribute('data-status', 'idle');
  return list.locator('.khs-search-teaser');
}

test.describe('articles as files, live', () => {
  // axe-core is injected as an inline script, which the site's CSP rightly refuses.
  test.use({ bypassCSP: true });
  let stack: Stack;
  let dir: string;
  /** Every output line of the stack's processes (the search service logs content problems). */
  const logLines: string[] = [];
  test.beforeAll(async () => {
    // A stack of its own: its start takes longer than the default 45 s on a busy machine.
    test.setTimeout(120_000);
    dir = mkdtempSync(join(tmpdir(), 'khs-e2e-content-'));
    cpSync(defaultArticlesDir, dir, { recursive: true });
    stack = await startStack({ env: { CONTENT_DIR: dir, PREVIEW_SECRET }, log: (line) => logLines.push(logText(line)) });
  });
  /** The content-problem lines logged so far that name `file`. */
  const problemLines = (file: string) => logLines.filter((line) => line.includes('content problem') && line.includes(`${file}:`));
  test.afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a new file is live within 5 s (page, home, search), then changed, then removed; the index is never empty', async ({ page }) => {
    test.setTimeout(90_000);
    // Searches every 100 ms for the whole test: each must find the seeded articles.
    const answers: number[] = [];
    let searching = true;
    const searcher = (async () => {
      while (searching) {
        answers.push((await search(stack, 'leadership')).found);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    try {
      const file = join(dir, 'zephyr-lanterns.md');
      let written = Date.now();
      writeFileSync(file, articleFile('Zephyr lanterns for quiet teams', 'Teams that light **zephyrlanterns** together talk more openly.'));
      await expect.poll(async () => (await fetch(new URL('/articles/zephyr-lanterns', stack.url))).status, within5s(written)).toBe(200);
      await expect.poll(async () => (await search(stack, 'zephyrlanterns')).headlines, within5s(written)).toEqual(['Zephyr lanterns for quiet teams']);
      await expect.poll(async () => watchlistResolves(stack, ['zephyr-lanterns']), within5s(written)).toEqual(['zephyr-lanterns']);
      const home = await (await fetch(stack.url)).text();
      expect(home).toContain('href="/articles/zephyr-lanterns"');
      await page.goto(new URL('/articles/zephyr-lanterns', stack.url).href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zephyr lanterns for quiet teams');
      await expect(page.locator('.article__content strong')).toHaveText('zephyrlanterns');
      const hits = await searchPageFor(page, stack, 'zephyrlanterns');
      await expect(hits).toHaveCount(1);
      await expect(hits.first().locator('mark').first()).toHaveText(/zephyrlanterns/i);

      written = Date.now();
      writeFileSync(file, articleFile('Zephyr lanterns, second edition', 'Teams that light **zephyrlanterns** together talk more openly.'));
      await expect.poll(async () => (await search(stack, 'zephyrlanterns')).headlines, within5s(written)).toEqual(['Zephyr lanterns, second edition']);
      await page.goto(new URL('/articles/zephyr-lanterns', stack.url).href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zephyr lanterns, second edition');

      written = Date.now();
      unlinkSync(file);
      await expect.poll(async () => (await fetch(new URL('/articles/zephyr-lanterns', stack.url))).status, within5s(written)).toBe(404);
      await expect.poll(async () => (await search(stack, 'zephyrlanterns')).found, within5s(written)).toBe(0);
      await expect.poll(async () => watchlistResolves(stack, ['zephyr-lanterns']), within5s(written)).toEqual([]);
      expect(await (await fetch(stack.url)).text()).not.toContain('zephyr-lanterns');
    } finally {
      // Stopped before the assertions below, and also when one above failed (the stack closes after).
      searching = false;
      await searcher;
    }
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((found) => found === 0)).toEqual([]);
  });

  test('a broken edit keeps the old article live everywhere; the problem is logged once, by one process, with file, line and column', async ({ page }) => {
    test.setTimeout(60_000);
    const file = join(dir, 'steady-beacons.md');
    writeFileSync(file, articleFile('Steady beacons', 'Teams keep their **steadybeacons** lit.'));
    await expect.poll(async () => (await search(stack, 'steadybeacons')).headlines, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual(['Steady beacons']);
    await expect.poll(async () => (await fetch(new URL('/articles/steady-beacons', stack.url))).status, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(200);

    // Line 4 of the file: "intro: broken: twice" is no YAML.
    const broken = articleFile('Steady beacons, broken', 'Teams keep their **steadybeacons** lit.').replace('intro: An article written during the test.', 'intro: broken: twice');
    expect(broken.split('\n')[3]).toBe('intro: broken: twice');
    writeFileSync(file, broken);
    // A file written after the broken edit: once every reader serves it, each has read the edit too.
    writeFileSync(join(dir, 'steady-marker.md'), articleFile('Steady marker', 'About steadymarker.'));
    await expect.poll(async () => (await fetch(new URL('/articles/steady-marker', stack.url))).status, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(200);
    await expect.poll(async () => watchlistResolves(stack, ['steady-marker']), { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual(['steady-marker']);
    await expect.poll(async () => (await search(stack, 'steadymarker')).found, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(1);

    await page.goto(new URL('/articles/steady-beacons', stack.url).href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Steady beacons');
    expect((await search(stack, 'steadybeacons')).headlines).toEqual(['Steady beacons']);
    expect(await watchlistResolves(stack, ['steady-beacons'])).toEqual(['steady-beacons']);
    await expect.poll(() => problemLines('steady-beacons.md'), { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual([
      expect.stringMatching(/content problem \(its last good version stays live\): steady-beacons\.md:4:8: the front matter is not valid YAML/),
    ]);
    // Logged by the search service's indexer, the one process that logs content problems.
    expect(problemLines('steady-beacons.md')[0]).toMatch(/\[search-indexer\] content problem/);

    // Fixed: the new version is live.
    writeFileSync(file, articleFile('Steady beacons, fixed', 'Teams keep their **steadybeacons** lit.'));
    await expect.poll(async () => (await search(stack, 'steadybeacons')).headlines, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual(['Steady beacons, fixed']);
    expect(problemLines('steady-beacons.md')).toHaveLength(1);
  });

  test('a second file with a live id is refused, naming both files, and the original stays, though the new file sorts first', async () => {
    test.setTimeout(60_000);
    const original = await (await fetch(new URL('/articles/change-fatigue', stack.url))).text();
    expect(original).toContain('Pacing transformation to protect people');
    mkdirSync(join(dir, '2026'), { recursive: true });
    writeFileSync(join(dir, '2026', 'change-fatigue.md'), articleFile('Takeover of change fatigue', 'About takeoverfatigue.'));
    await expect.poll(() => problemLines('2026/change-fatigue.md'), { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual([
      expect.stringMatching(/2026\/change-fatigue\.md:1: the id "change-fatigue" is already used by change-fatigue\.md, which stays live: this file is refused/),
    ]);
    const page = await (await fetch(new URL('/articles/change-fatigue', stack.url))).text();
    expect(page).toContain('Pacing transformation to protect people');
    expect(page).not.toContain('Takeover of change fatigue');
    expect((await search(stack, 'takeoverfatigue')).found).toBe(0);
    rmSync(join(dir, '2026', 'change-fatigue.md'));
  });

  test("an edited article's sitemap lastmod is the edit's date (its front matter's updated), not the publication date", async () => {
    const edited = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    // Published yesterday (among the feed's newest), edited an hour ago.
    writeFileSync(join(dir, 'edited-lanterns.md'), articleFile('Edited lanterns', 'About editedlanterns.', `updated: ${edited}\n`));
    const lastmod = async () => /<loc>[^<]*\/articles\/edited-lanterns<\/loc>\s*<lastmod>([^<]+)<\/lastmod>/.exec(await (await fetch(new URL('/sitemap.xml', stack.url))).text())?.[1];
    await expect.poll(lastmod, { timeout: LIVE_WITHIN_MS, intervals: [200] }).toBe(new Date(edited).toISOString());
    const feed = await (await fetch(new URL('/feed.xml', stack.url))).text();
    expect(feed).toMatch(new RegExp(`/articles/edited-lanterns"/>\\s*<published>${new Date(`${YESTERDAY}T00:00:00Z`).toISOString()}</published>\\s*<updated>${new Date(edited).toISOString()}</updated>`));
  });

  test("the check names a YAML mistake's real line and column", () => {
    const folder = mkdtempSync(join(tmpdir(), 'khs-e2e-check-'));
    try {
      // Line 6 of the file: "date: 2025-03-14: noon" is no YAML.
      writeFileSync(join(folder, 'bad-yaml.md'), articleFile('Bad YAML', 'Body.').replace(/^date: .*$/m, 'date: 2025-03-14: noon'));
      const run = spawnSync('npm', ['run', '--silent', 'check', '-w', '@khs/content'], { cwd: REPO_ROOT, env: { ...process.env, CONTENT_DIR: folder }, encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^bad-yaml\.md:6:7: the front matter is not valid YAML: /m);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('a draft and a scheduled article are nowhere public, and visible through a valid preview link only', async ({ page }) => {
    test.setTimeout(60_000);
    writeFileSync(join(dir, 'quokka-draft.md'), articleFile('Quokkabridge draft', 'About quokkabridge.', 'draft: true\n'));
    writeFileSync(join(dir, 'quokka-later.md'), articleFile('Quokkabridge later', 'About quokkabridge.', '', '2099-01-01'));
    // A public file written with them: once it is live, the other two have been read as well.
    writeFileSync(join(dir, 'quokka-now.md'), articleFile('Quokkabridge now', 'About quokkabridge.'));
    await expect.poll(async () => (await search(stack, 'quokkabridge')).headlines, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toEqual(['Quokkabridge now']);
    await expect.poll(async () => (await fetch(new URL('/articles/quokka-now', stack.url))).status, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(200);
    const home = await (await fetch(stack.url)).text();
    expect(home).toContain('/articles/quokka-now');
    for (const id of ['quokka-draft', 'quokka-later']) {
      expect((await fetch(new URL(`/articles/${id}`, stack.url))).status).toBe(404);
      expect(home).not.toContain(`/articles/${id}`);
    }

    const expires = Math.floor(Date.now() / 1000) + 600;
    for (const [id, headline] of [['quokka-draft', 'Quokkabridge draft'], ['quokka-later', 'Quokkabridge later']] as const) {
      const response = await page.goto(new URL(previewPath(id, expires, PREVIEW_SECRET), stack.url).href);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['cache-control']).toBe('private, no-store');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(headline);
      // The page says noindex in its head; the header adds nofollow for crawlers.
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    }
    const valid = previewPath('quokka-draft', expires, PREVIEW_SECRET);
    const tampered = valid.replace(`expires=${expires}`, `expires=${expires + 86_400}`);
    const expired = previewPath('quokka-draft', Math.floor(Date.now() / 1000) - 60, PREVIEW_SECRET);
    for (const url of [tampered, expired]) {
      const response = await fetch(new URL(url, stack.url));
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('Quokkabridge draft');
    }
  });

  test('a Markdown body (headings, lists, quotes, links, images) is styled by the site and axe-clean', async ({ page }) => {
    test.setTimeout(60_000);
    const body = [
      'An opening paragraph with *emphasis* and **strength**.',
      '## What works',
      '- short sessions',
      '- a colleague to ask',
      '1. prepare',
      '2. practise',
      '> Practice beats reading about it.',
      'Read [the guide](https://example.org/guide) for more.',
      '![A grey placeholder square](/content-images/default.svg)',
    ].join('\n\n');
    writeFileSync(join(dir, 'markdown-showcase.md'), articleFile('Markdown showcase', body));
    await expect.poll(async () => (await fetch(new URL('/articles/markdown-showcase', stack.url))).status, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(200);
    await page.goto(new URL('/articles/markdown-showcase', stack.url).href);
    await islandsSettled(page);
    const content = page.locator('.article__content');
    await expect(content.getByRole('heading', { level: 2, name: 'What works' })).toBeVisible();
    await expect(content.getByRole('list')).toHaveCount(2);
    await expect(content.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.org/guide');
    await expect(content.getByRole('img', { name: 'A grey placeholder square' })).toBeVisible();
    // The site's CSS reaches the body's elements: the quote gets its accent bar, the heading its spacing
    // (the browser's defaults: no bar, 0.83em).
    const quoteBorder = await content.locator('blockquote').evaluate((element) => getComputedStyle(element).borderLeftWidth);
    expect(quoteBorder).toBe('4px');
    const headingSpace = await content.locator('h2').evaluate((element) => getComputedStyle(element).marginTop);
    expect(headingSpace).toBe('28px');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a new article with its own images next to it shows them by hashed URL, sized before they load (no layout shift)', async ({ page }) => {
    test.setTimeout(60_000);
    const folder = join(dir, '2026', 'own-images');
    mkdirSync(folder, { recursive: true });
    const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
    writeFileSync(join(folder, 'cover.png'), await png(1600, 900));
    writeFileSync(join(folder, 'chart.png'), await png(1000, 500));
    // The images first, then the article that names them (as an editor's copy into the folder would).
    writeFileSync(
      join(folder, 'own-images.md'),
      articleFile('Own images', 'A chart of the quarter follows.\n\n![A chart of the quarter](./chart.png)').replace('image: /content-images/default.svg', 'image: ./cover.png'),
    );
    await expect.poll(async () => (await fetch(new URL('/articles/own-images', stack.url))).status, { timeout: LIVE_WITHIN_MS, intervals: [100] }).toBe(200);

    // The images are held back until the layout before they load has been measured (what a slow
    // network shows), then let through.
    const imageRequests: string[] = [];
    let releaseImages = (): void => {};
    const imagesReleased = new Promise<void>((resolve) => (releaseImages = resolve));
    await page.route('**/images/**', async (route) => {
      imageRequests.push(new URL(route.request().url()).pathname);
      await imagesReleased;
      await route.continue();
    });
    await page.goto(new URL('/articles/own-images', stack.url).href, { waitUntil: 'domcontentloaded' });
    const cover = page.locator('.article__figure').getByRole('img', { name: 'A grey placeholder' });
    const chart = page.locator('.article__content').getByRole('img', { name: 'A chart of the quarter' });
    await expect(cover).toHaveAttribute('src', /^\/images\/cover\.[0-9a-f]{12}\.png$/);
    await expect(chart).toHaveAttribute('src', /^\/images\/chart\.[0-9a-f]{12}\.png$/);
    const boxes = async () => Promise.all([cover, chart].map((image) => image.evaluate((element: HTMLImageElement) => ({ loaded: element.complete && element.naturalWidth > 0, width: element.getBoundingClientRect().width, height: element.getBoundingClientRect().height }))));
    const before = await boxes();
    expect(before.map((box) => box.loaded)).toEqual([false, false]);
    releaseImages();
    await chart.scrollIntoViewIfNeeded();
    await expect.poll(async () => (await boxes()).map((box) => box.loaded), { timeout: 20_000 }).toEqual([true, true]);
    const after = await boxes();
    // Width and height in the markup reserve the box: it is the same before and after the pictures came.
    expect(after.map(({ width, height }) => ({ width, height }))).toEqual(before.map(({ width, height }) => ({ width, height })));
    // The reserved box has the picture's own proportions (1600×900 and 1000×500).
    expect(after[0]!.width / after[0]!.height).toBeCloseTo(16 / 9, 1);
    expect(after[1]!.width / after[1]!.height).toBeCloseTo(2, 1);
    // What went over the wire: hashed URLs only (a WebP rendition or the original), served immutable.
    expect(imageRequests.length).toBeGreaterThanOrEqual(2);
    for (const path of imageRequests) expect(path).toMatch(/^\/images\/(cover|chart)\.[0-9a-f]{12}(\.\d+w\.webp|\.png)$/);
    const served = await fetch(new URL(imageRequests[0]!, stack.url));
    expect([served.status, served.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
  });
});
