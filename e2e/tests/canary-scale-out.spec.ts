// Issue 22, point 4, with two shell instances on one PostgreSQL behind nginx (the scale-out
// harness): both serve the same split of visitors to a canary, a canary page is never kept by the
// shared cache, the rule sees the counts of both (reports go half to each), and both see its end.
// Traffic is simulated over HTTP (a page request per visitor, then that page's report), bounded.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { listArticles } from '@khs/content';
import { REPO_ROOT } from '../harness/stack.js';
import { SCALE_OUT_OPERATOR_TOKEN, scaleOutUnavailable, startScaleOut, type ScaleOut } from '../harness/scaleOut.js';
import { remoteBuildVariant } from '../harness/remoteVariant.js';

const run = promisify(execFile);
const REMOTE = 'mf-watchlist';
const article = listArticles()[0]!;
/** Bounded traffic: this many visitors, each one page on each shell. */
const VISITORS = 40;

let site: ScaleOut;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  const unavailable = scaleOutUnavailable();
  test.skip(unavailable !== undefined, unavailable);
  test.setTimeout(240_000);
  site = await startScaleOut({ env: { CANARY_MIN_VIEWS: '8', CANARY_MIN_FAILURES: '3' } });
  for (const shell of site.shells) {
    await expect.poll(async () => (await fetch(new URL(article.url, shell))).headers.get('cache-control'), { timeout: 60_000 }).toContain('s-maxage=');
  }
});

test.afterAll(async () => {
  await site?.close();
});

/** The build of the remote a page pinned (its page config names `versions/<v>/mf-manifest.json`), and the answer's headers. */
async function pageOf(origin: string, visitor: string): Promise<{ version: string; cacheControl: string | null; cacheStatus: string | null; setCookie: string[] }> {
  const response = await fetch(new URL(article.url, origin), { headers: { cookie: `khs_visitor=${visitor}` } });
  expect(response.status).toBe(200);
  const html = await response.text();
  const remoteOrigin = site.stack.remotes[REMOTE].replace(/\/$/, '');
  const pinned = new RegExp(`${remoteOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/versions/([^/"\\\\]+)/mf-manifest\\.json`).exec(html);
  expect(pinned, 'the page pins the remote build').not.toBeNull();
  return { version: pinned![1]!, cacheControl: response.headers.get('cache-control'), cacheStatus: response.headers.get('x-cache-status'), setCookie: response.headers.getSetCookie() };
}

async function canaryOn(shell: string): Promise<{ state: string; ended: null | { reason: string; at: string; outcome: string } } | null> {
  const response = await fetch(new URL('/health/remotes.json', shell), { headers: { authorization: `Bearer ${SCALE_OUT_OPERATOR_TOKEN}` } });
  const body = (await response.json()) as { remotes: { name: string; canary: { state: string; ended: null | { reason: string; at: string; outcome: string } } | null }[] };
  return body.remotes.find((remote) => remote.name === REMOTE)!.canary;
}

test('two shells: the same split for every visitor, canary pages private, the rule sees both shells’ reports, and both see the end', async () => {
  const target = site.stack.originDirs[REMOTE];
  // A canary build: a new build version of the same code; the "failures" are the simulated reports below.
  const dist = remoteBuildVariant(REMOTE, () => {});
  const { stdout } = await run('npm', ['run', '--silent', 'deploy', '-w', REMOTE, '--', '--to', target, '--from', dist, '--canary', '50'], { cwd: REPO_ROOT });
  const canary = /: (\S+) published; canary/.exec(stdout)?.[1];
  expect(canary, stdout).toBeDefined();
  for (const shell of site.shells) await expect.poll(async () => (await canaryOn(shell))?.state, { timeout: 15_000 }).toBe('running');

  const visitors = Array.from({ length: VISITORS }, () => randomBytes(16).toString('base64url'));
  const sides = new Map<string, string>();
  for (const visitor of visitors) {
    const [one, two] = await Promise.all(site.shells.map((shell) => pageOf(shell, visitor)));
    // The same split on both instances, pinned in the page, private.
    expect(two!.version).toBe(one!.version);
    expect(one!.cacheControl).toMatch(/^private\b/);
    sides.set(visitor, one!.version);
  }
  const onCanary = [...sides.values()].filter((version) => version === canary).length;
  expect(onCanary).toBeGreaterThan(0);
  expect(onCanary).toBeLessThan(VISITORS);
  // Through the caching proxy: a canary visitor's page is never a cached one.
  const canaryVisitor = visitors.find((visitor) => sides.get(visitor) === canary)!;
  for (let request = 0; request < 3; request++) expect((await pageOf(site.proxyUrl, canaryVisitor)).cacheStatus).not.toBe('HIT');

  // Each visitor's page report (views of the build it ran; the canary's island failed), alternately
  // to each shell: neither shell alone gets the rule's minimum of canary views.
  let index = 0;
  for (const [visitor, version] of sides) {
    const failures = version === canary ? [{ remote: REMOTE, module: './WatchlistLink', stage: 'hydrate', code: 'KHS-ISLAND-007', remoteVersion: version }] : [];
    const response = await fetch(new URL('/api/island-failures', site.shells[index++ % 2]), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `khs_visitor=${visitor}` },
      body: JSON.stringify({ views: { [REMOTE]: version }, failures }),
    });
    expect(response.status).toBe(204);
  }
  // Both shells see the end, with the same reason (one decision, shared).
  const ends = [];
  for (const shell of site.shells) {
    await expect.poll(async () => (await canaryOn(shell))?.state, { timeout: 20_000 }).toBe('ended');
    ends.push((await canaryOn(shell))!.ended);
  }
  expect(ends[0]).toMatchObject({ outcome: 'rolled-back', reason: expect.stringMatching(/^canary fails 100\.0 % of \d+ views/) });
  expect(ends[1]).toEqual(ends[0]);
  // Every visitor gets the stable build on both shells, the canary's included.
  for (const visitor of visitors.slice(0, 10)) {
    for (const shell of site.shells) expect((await pageOf(shell, visitor)).version).not.toBe(canary);
  }
});
