// Issue 27: several shells behind a real proxy. nginx (Debian's package) as a caching load
// balancer in front of two shell processes on one PostgreSQL, with the team services and the
// search server behind them (harness/scaleOut.ts). Over the wire only: what the proxy answers
// visitors, and what the shells share.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { defaultArticlesDir, listArticles, listSurveys } from '@khs/content';
import { DEFAULT_CALL_URLS } from 'contracts';
import { SCALE_OUT_OPERATOR_TOKEN, SCALE_OUT_REVALIDATE_MS, scaleOutUnavailable, startScaleOut, type ScaleOut } from '../harness/scaleOut.js';
import { remoteBuildVariant } from '../harness/remoteVariant.js';
import { REPO_ROOT } from '../harness/stack.js';

const run = promisify(execFile);
const article = listArticles()[0]!;
const survey = listSurveys()[0]!;
/** Margin for one shell to poll the live manifests after another (a wait, not an assertion on speed). */
const MARGIN_MS = 15_000;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let site: ScaleOut;
/** Both shells' CONTENT_DIR: a temporary copy of the seeded articles, edited by one test. */
let contentDir: string;

test.beforeAll(async () => {
  const unavailable = scaleOutUnavailable();
  test.skip(unavailable !== undefined, unavailable);
  test.setTimeout(180_000);
  contentDir = mkdtempSync(path.join(os.tmpdir(), 'khs-scale-out-content-'));
  cpSync(defaultArticlesDir, contentDir, { recursive: true });
  site = await startScaleOut({ contentDir });
  // Until a shell has loaded the remotes' server builds, a render on a busy machine may miss the
  // island budget: such a degraded page is never cacheable (by design). Start from warm shells.
  for (const shell of site.shells) {
    await expect
      .poll(async () => (await fetch(new URL(article.url, shell))).headers.get('cache-control'), { timeout: 60_000, message: `${shell} renders whole pages` })
      .toContain('s-maxage=');
  }
});

test.afterAll(async () => {
  await site?.close();
  if (contentDir) rmSync(contentDir, { recursive: true, force: true });
});

const viaProxy = (url: string, init?: RequestInit) => fetch(new URL(url, site.proxyUrl), init);
const upstreamOf = (response: Response) => response.headers.get('x-upstream');

/** nginx's cache statuses of an answer from its store: kept within s-maxage, or stale while one refresh runs. */
const FROM_STORE = new Set(['HIT', 'STALE', 'UPDATING']);

/**
 * A change reaches visitors through the cache within s-maxage + one refresh, as an order rather
 * than a clock (a busy machine cannot fail it). Visitors ask through nginx every 250 ms; before
 * each ask the test notes which shells already serve the change themselves. An answer that still
 * shows the old page must come from nginx's store (a page it may keep for its s-maxage, or stale
 * while one refresh runs), or from a shell that did not serve the change yet: an answer nginx
 * fetched from a shell that already served the change (a 304 on a stale ETag, a stale cache in
 * between) fails at once; a cache that never lets the page go fails at the test's timeout. The
 * time taken is printed as a figure, beside `statedBound`.
 */
async function untilVisitorsSee(url: string, shows: (html: string) => boolean, label: string, statedBound: string): Promise<void> {
  const hostOf = (origin: string) => new URL(origin).host;
  const since = Date.now();
  const oldAnswers: string[] = [];
  for (;;) {
    const servingShells = new Set<string>();
    for (const shell of site.shells) if (shows(await (await fetch(new URL(url, shell))).text())) servingShells.add(hostOf(shell));
    const response = await viaProxy(url);
    expect(response.status).toBe(200);
    if (shows(await response.text())) break;
    const cacheStatus = response.headers.get('x-cache-status') ?? 'none';
    // $upstream_addr lists every shell tried; the last one answered.
    const upstream = (upstreamOf(response) ?? '').split(',').at(-1)!.trim();
    oldAnswers.push(`${cacheStatus}${upstream ? ` from ${upstream}` : ''}`);
    const fromAnUpdatedShell = !FROM_STORE.has(cacheStatus) && servingShells.has(upstream);
    expect(fromAnUpdatedShell, `after the ${label}, nginx answered ${cacheStatus} with the old page from a shell that served the change (${oldAnswers.join(', ')})`).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const figure = `${Date.now() - since} ms (stated bound: ${statedBound}), ${oldAnswers.length + 1} answers (${oldAnswers.join(', ') || 'none'} with the old page)`;
  test.info().annotations.push({ type: `${label} visible after`, description: figure });
  console.log(`[scale-out] a ${label} reached visitors through nginx after ${figure}`);
}

/** The visitor's cookie and CSRF token, fetched through `origin` (as a browser before it votes or shares). */
async function visitorSession(origin: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(new URL(DEFAULT_CALL_URLS.csrfToken, origin));
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  expect(cookie).toMatch(/^_csrf=/);
  return { cookie, token: await response.text() };
}

test('repeated article requests are answered from the cache, the same bytes for every visitor and nothing of one', async () => {
  const statuses: string[] = [];
  const bodies = new Set<string>();
  for (let visitor = 0; visitor < 4; visitor++) {
    // Every other one comes with a visitor's own cookie and language: it must not matter.
    const headers: Record<string, string> = visitor % 2 ? { cookie: `_csrf=visitor-${visitor}`, 'accept-language': 'de-CH' } : {};
    const response = await viaProxy(article.url, { headers });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get('cache-control')).toContain('s-maxage=');
    statuses.push(response.headers.get('x-cache-status') ?? 'none');
    bodies.add(await response.text());
  }
  expect(statuses[0]).toMatch(/^(MISS|EXPIRED|STALE|UPDATING)$/);
  expect(statuses.slice(1)).toEqual(['HIT', 'HIT', 'HIT']);
  expect(bodies.size).toBe(1);
  expect([...bodies][0]).toContain(article.title);

  // Per-visitor answers are never kept: asked again, the proxy still asks a shell (a MISS, never a
  // HIT), and each visitor gets a cookie and token of their own.
  const tokens = new Set<string>();
  for (let visitor = 0; visitor < 3; visitor++) {
    const response = await viaProxy(DEFAULT_CALL_URLS.csrfToken);
    expect(response.headers.get('x-cache-status')).toBe('MISS');
    expect(response.headers.getSetCookie()).toHaveLength(1);
    tokens.add(await response.text());
  }
  expect(tokens.size).toBe(3);
  for (let visit = 0; visit < 2; visit++) expect((await viaProxy('/watchlist')).headers.get('x-cache-status')).toBe('MISS');
});

test('votes, shares and rate limits are shared by the shells; the operators’ view counts failures from both', async () => {
  const [first, second] = site.shells;
  // A vote through one shell; the same browser again through the other: counted once.
  const visitor = await visitorSession(first);
  const vote = (origin: string) =>
    fetch(new URL(DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', survey.formHandle), origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': visitor.token, cookie: visitor.cookie },
      body: JSON.stringify({ answerPosition: survey.answers[0]!.position }),
    });
  const firstVote = await vote(first);
  expect(firstVote.status).toBe(201);
  expect(((await firstVote.json()) as { counted: boolean }).counted).toBe(true);
  const again = await vote(second);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { counted: boolean }).counted).toBe(false);

  // A share made through one shell opens through the other and through the proxy (then from its cache).
  const share = await fetch(new URL(DEFAULT_CALL_URLS.watchlist, first), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': visitor.token, cookie: visitor.cookie },
    body: JSON.stringify({ storedWatchlist: { articles: { [article.id]: { title: article.title } } } }),
  });
  expect(share.status).toBe(200);
  const sharingUrl = ((await share.json()) as { storedWatchlist: { sharingUrl: string } }).storedWatchlist.sharingUrl;
  expect(sharingUrl.startsWith(`${site.proxyUrl}/watchlist/shared/`)).toBe(true);
  const sharePath = new URL(sharingUrl).pathname;
  const onSecond = await fetch(new URL(sharePath, second));
  expect(onSecond.status).toBe(200);
  expect(await onSecond.text()).toContain(article.title);
  const shareStatuses = [];
  for (let view = 0; view < 2; view++) shareStatuses.push((await viaProxy(sharePath)).headers.get('x-cache-status'));
  expect(shareStatuses[1]).toBe('HIT');

  // 121 page reports through the proxy, balanced over both shells: the per-address limit (120 a
  // minute, ISLAND_FAILURE_LIMIT) holds over both together, and every accepted one is counted in the shared store.
  const statuses: number[] = [];
  const upstreams = new Set<string | null>();
  for (let beacon = 0; beacon < 121; beacon++) {
    const response = await viaProxy('/api/island-failures', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A page report: one view of the watchlist's build and one widgets failure.
      body: JSON.stringify({
        views: { 'mf-watchlist': 'scale-out-test' },
        failures: [{ remote: 'mf-widgets', stage: 'mount', code: 'KHS-ISLAND-006', remoteVersion: 'scale-out-test' }],
      }),
    });
    statuses.push(response.status);
    upstreams.add(upstreamOf(response));
  }
  expect(upstreams.size).toBe(2);
  expect(statuses.filter((status) => status === 204)).toHaveLength(120);
  expect(statuses.slice(120)).toEqual([429]);

  type Failures = { browser: Record<string, number>; browserVersions: Record<string, number>; views: Record<string, number> };
  const failuresSeenBy = async (shell: string, remote: string): Promise<Failures> => {
    const response = await fetch(new URL('/health/remotes.json', shell), { headers: { authorization: `Bearer ${SCALE_OUT_OPERATOR_TOKEN}` } });
    const health = (await response.json()) as { remotes: { name: string; failures: Failures }[] };
    return health.remotes.find((entry) => entry.name === remote)!.failures;
  };
  for (const shell of site.shells) {
    await expect
      .poll(() => failuresSeenBy(shell, 'mf-widgets'), { timeout: 10_000 })
      .toMatchObject({ browser: { 'KHS-ISLAND-006': 120 }, browserVersions: { 'scale-out-test': 120 } });
  }
  // Page views per remote build (the canary rule's denominator), from the browsers' page reports
  // above: each shell received about half, and each sees the sum of both.
  for (const shell of site.shells) {
    await expect.poll(async () => (await failuresSeenBy(shell, 'mf-watchlist')).views, { timeout: 10_000 }).toEqual({ 'scale-out-test': 120 });
  }
});

test('a remote deploy reaches visitors through the cache within s-maxage + the manifest poll + one refresh (as an order: only pages nginx keeps are old)', async () => {
  const remote = 'mf-watchlist';
  const warm = await viaProxy(article.url);
  expect(warm.status).toBe(200);
  const before = await warm.text();
  // The shells' own page lifetime (one place: PAGE_CACHE in shell/src/server/delivery/pageCache.ts).
  const sMaxAgeMs = Number(/s-maxage=(\d+)/.exec(warm.headers.get('cache-control') ?? '')?.[1]) * 1000;
  expect(sMaxAgeMs).toBeGreaterThan(0);
  const variant = remoteBuildVariant(remote, () => {});

  const version = variant.split('/').at(-1)!;
  expect(before).not.toContain(version);
  // The team's own command: the origin's live manifest switches to the new build's folder.
  // The team's command copies the build into the origin's versions/: the variant folder can go.
  await run('npm', ['run', '--silent', 'deploy', '-w', remote, '--', '--to', site.stack.originDirs[remote], '--from', variant], { cwd: REPO_ROOT }).finally(() =>
    rmSync(variant, { recursive: true, force: true }),
  );
  await untilVisitorsSee(article.url, (html) => html.includes(`/versions/${version}/`), 'remote deploy', `s-maxage ${sMaxAgeMs} ms + the manifest poll ${SCALE_OUT_REVALIDATE_MS} ms + one refresh`);
  // And then it stays: the next visitors get the new build, from the cache.
  const next = await viaProxy(article.url);
  expect(await next.text()).toContain(`/versions/${version}/`);
});

test('an edited article reaches visitors through the cache within s-maxage + one refresh, both shells tagging it alike (as an order: only pages nginx keeps are old)', async () => {
  const edited = listArticles()[1]!;
  const warm = await viaProxy(edited.url);
  expect(warm.status).toBe(200);
  const sMaxAgeMs = Number(/s-maxage=(\d+)/.exec(warm.headers.get('cache-control') ?? '')?.[1]) * 1000;
  expect(sMaxAgeMs).toBeGreaterThan(0);
  // Kept by nginx before the edit (a first render on a busy machine may be degraded, never kept).
  await expect.poll(async () => (await viaProxy(edited.url)).headers.get('x-cache-status'), { timeout: 30_000, intervals: [250] }).toBe('HIT');
  const tags = async () => Promise.all(site.shells.map(async (shell) => (await fetch(new URL(edited.url, shell))).headers.get('etag')));
  // Both shells tag the page alike once both have polled the live manifests (the deploy test above
  // switched one remote: a shell may be up to one poll behind).
  await expect.poll(async () => new Set(await tags()).size, { timeout: SCALE_OUT_REVALIDATE_MS + MARGIN_MS, intervals: [250] }).toBe(1);
  const [before] = await tags();
  expect(before).toMatch(/^W\//);

  const marker = 'Quarzitfelsenbrief';
  const file = path.join(contentDir, `${edited.id}.md`);
  writeFileSync(file, `${readFileSync(file, 'utf8')}\n\nA sentence the editor added: ${marker}.\n`);
  await untilVisitorsSee(edited.url, (html) => html.includes(marker), 'content edit', `s-maxage ${sMaxAgeMs} ms + one refresh`);
  // The shells read the same folder and tag the page alike, without talking to each other.
  // (Each shell reads the folder on its own watcher's event: poll the short while one may be behind.)
  await expect
    .poll(async () => {
      const [after, otherAfter] = await tags();
      return { retagged: after !== before, alike: after === otherAfter };
    }, { timeout: 5000, intervals: [100] })
    .toEqual({ retagged: true, alike: true });
});

test('a published article reaches a search address kept by the cache within s-maxage + one refresh (as an order: only pages nginx keeps are old), and goes as fast when deleted', async () => {
  // Issue 36: the shells tag /search pages with the search index's version as well, so a search
  // address cached before a publish is refreshed once the index has the article, not 304'd.
  const word = 'Quarzitsuchwort';
  const searchUrl = `/search?q=${word.toLowerCase()}`;
  const headlineOf = (html: string) => html.includes(`The ${word} practice`);
  // A first render on a busy machine may miss the island budget (degraded, never kept): wait for a whole one.
  await expect.poll(async () => (await viaProxy(searchUrl)).headers.get('cache-control'), { timeout: 60_000, intervals: [250] }).toContain('s-maxage=');
  const warm = await viaProxy(searchUrl);
  expect(warm.status).toBe(200);
  expect(headlineOf(await warm.text())).toBe(false);
  const sMaxAgeMs = Number(/s-maxage=(\d+)/.exec(warm.headers.get('cache-control') ?? '')?.[1]) * 1000;
  expect(sMaxAgeMs).toBeGreaterThan(0);
  await expect.poll(async () => (await viaProxy(searchUrl)).headers.get('x-cache-status'), { timeout: 30_000, intervals: [250] }).toBe('HIT');

  const file = path.join(contentDir, 'quarzit-suchwort.md');
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const until = (shown: boolean, label: string) => untilVisitorsSee(searchUrl, (html) => headlineOf(html) === shown, `${label} on a cached search address`, `s-maxage ${sMaxAgeMs} ms + one refresh`);
  writeFileSync(
    file,
    `---\nheadline: The ${word} practice\ntitle: The ${word} practice\nintro: Written during the test.\ntopic: [Coaching]\ndate: ${yesterday}\nimage: /content-images/default.svg\nimageAlt: Grey\ncta: Read more\n---\n\nTeams that practise ${word.toLowerCase()} talk more openly.\n`,
  );
  await until(true, 'publish');
  await expect.poll(async () => (await viaProxy(searchUrl)).headers.get('x-cache-status'), { timeout: 30_000, intervals: [250] }).toBe('HIT');
  rmSync(file);
  await until(false, 'delete');
});

test('one shell killed: visitors get no failed page, cached or not', async () => {
  await site.killSecondShell();
  // Really gone: nothing answers on its port (a wrapper killed in its place left it serving).
  await expect(fetch(new URL('/health', site.shells[1]))).rejects.toThrow();
  const statuses: number[] = [];
  for (let visitor = 0; visitor < 12; visitor++) {
    // Uncached addresses go to a shell (the dead one first, half the time), cached ones come from nginx.
    const uncached = await viaProxy(`/search?q=${encodeURIComponent(`after the crash ${visitor}`)}`);
    statuses.push(uncached.status);
    expect(upstreamOf(uncached)).not.toBeNull();
    statuses.push((await viaProxy(article.url)).status);
  }
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  expect(statuses).toHaveLength(24);
});
