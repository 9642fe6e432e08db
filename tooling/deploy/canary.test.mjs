// The canary at the origin: khs-deploy deploy --canary / --promote / --abort, rollout.json, and
// `status` reading the site's operators' JSON.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serveDirectory } from '@khs/static-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abortCanary, deploy, keepLive, liveStack, promoteCanary, readDeployments, readRollout, rollback, startCanary } from './index.mjs';
import { fetchSiteHealth, formatRemoteStatus } from './siteStatus.mjs';

const CLI = path.join(import.meta.dirname, 'cli.mjs');
let work;
let target;

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'khs-canary-test-'));
  target = path.join(work, 'origin');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** A minimal build as tooling/rspack-preset writes it (manifest with a build version, an entry). */
function fakeBuild(version, dir = path.join(work, `dist-${version}-${Math.random().toString(36).slice(2)}`)) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${version} */`);
  const manifest = { id: 'mf_test', name: 'mf_test', metaData: { name: 'mf_test', buildVersion: version, publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } }, shared: [], remotes: [], exposes: [] };
  writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
  return dir;
}

const liveVersion = () => JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8')).metaData.buildVersion;
const at = (iso) => () => new Date(iso);

describe('startCanary', () => {
  it('publishes the build and writes the split beside the live manifest, which stays the stable version', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    const result = await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10, now: at('2026-11-26T03:00:00.000Z') });
    expect(result).toEqual({ version: '1.1.0+bbbb', stable: '1.0.0+aaaa', share: 0.1, alreadyPublished: false });
    expect(await readRollout(target)).toEqual({ stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.1, startedAt: '2026-11-26T03:00:00.000Z' }, ended: null });
    expect(liveVersion()).toBe('1.0.0+aaaa');
    // The canary version loads directly from its own folder (how a page pins it).
    const own = JSON.parse(readFileSync(path.join(target, 'versions/1.1.0+bbbb/mf-manifest.json'), 'utf8'));
    expect(own.metaData.buildVersion).toBe('1.1.0+bbbb');
    // Starting a canary is no switch: a rollback still goes to what was live before.
    const record = await readDeployments(target);
    expect(record.current).toBe('1.0.0+aaaa');
    expect(record.history.at(-1)).toMatchObject({ action: 'canary', version: '1.1.0+bbbb', previous: '1.0.0+aaaa', share: 0.1 });
    expect(liveStack(record.history)).toEqual(['1.0.0+aaaa']);
  });

  it('refuses a share out of range, a site with nothing live, the live version, and a second canary', async () => {
    const refused = (promise) => promise.then(() => undefined, (error) => error.code);
    expect(await refused(startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10 }))).toBe('no-stable');
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    for (const percent of [0, 100, -5, Number.NaN]) expect(await refused(startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent }))).toBe('bad-share');
    expect(await refused(startCanary({ from: fakeBuild('1.0.0+aaaa'), target, percent: 10 }))).toBe('canary-active');
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10 });
    expect(await refused(startCanary({ from: fakeBuild('1.2.0+cccc'), target, percent: 20 }))).toBe('canary-active');
    expect((await readRollout(target)).canary.version).toBe('1.1.0+bbbb');
    expect(liveVersion()).toBe('1.0.0+aaaa');
  });
});

describe('keepLive (npm start -- --no-build)', () => {
  it('deploys the build only when nothing is live yet, then serves what is live whatever the build folder holds', async () => {
    expect(await keepLive({ from: fakeBuild('1.0.0+aaaa'), target })).toMatchObject({ version: '1.0.0+aaaa', changed: true });
    // A leftover candidate in the build folder is not made live; the live build is served.
    expect(await keepLive({ from: fakeBuild('1.1.0+bbbb'), target })).toEqual({ version: '1.0.0+aaaa', changed: false, skipped: '1.1.0+bbbb' });
    expect(liveVersion()).toBe('1.0.0+aaaa');
    expect(await keepLive({ from: path.join(work, 'no-such-dist'), target })).toEqual({ version: '1.0.0+aaaa', changed: false });
    expect((await readDeployments(target)).history).toHaveLength(1);
  });

  it('refuses, naming the folder, a build of another version while a canary runs, and leaves the canary running', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 50 });
    const leftover = fakeBuild('1.2.0+cccc');
    const refused = await keepLive({ from: leftover, target }).then(() => undefined, (error) => error);
    expect(refused).toMatchObject({ code: 'canary-active' });
    expect(refused.message).toContain(leftover);
    expect(refused.message).toContain('canary 1.1.0+bbbb');
    expect(await readRollout(target)).toMatchObject({ canary: { version: '1.1.0+bbbb' } });
    expect(liveVersion()).toBe('1.0.0+aaaa');
    // The live build in the folder (or none there) starts as before.
    expect(await keepLive({ from: fakeBuild('1.0.0+aaaa'), target })).toEqual({ version: '1.0.0+aaaa', changed: false });
  });
});

describe('promoteCanary and abortCanary', () => {
  it('promote makes the canary live for everyone (the normal switch) and records why the canary ended', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 50 });
    expect(await promoteCanary({ target, now: at('2026-11-26T04:00:00.000Z') })).toEqual({ version: '1.1.0+bbbb', previous: '1.0.0+aaaa' });
    expect(liveVersion()).toBe('1.1.0+bbbb');
    expect(await readRollout(target)).toEqual({
      stable: '1.1.0+bbbb',
      canary: null,
      ended: { version: '1.1.0+bbbb', outcome: 'promoted', reason: 'promoted by an operator', at: '2026-11-26T04:00:00.000Z' },
    });
    // A promoted canary is a switch like a deploy: rollback goes back to the old stable.
    expect((await rollback({ target })).version).toBe('1.0.0+aaaa');
    expect((await readRollout(target)).stable).toBe('1.0.0+aaaa');
  });

  it('abort ends the canary with the live version unchanged, with the reason given', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10 });
    expect(await abortCanary({ target, reason: 'the search box looks wrong', now: at('2026-11-26T04:00:00.000Z') })).toEqual({ version: '1.1.0+bbbb', stable: '1.0.0+aaaa' });
    expect(liveVersion()).toBe('1.0.0+aaaa');
    expect(await readRollout(target)).toEqual({
      stable: '1.0.0+aaaa',
      canary: null,
      ended: { version: '1.1.0+bbbb', outcome: 'aborted', reason: 'the search box looks wrong', at: '2026-11-26T04:00:00.000Z' },
    });
    expect(liveStack((await readDeployments(target)).history)).toEqual(['1.0.0+aaaa']);
    // Nothing to promote or abort any more; a new canary may start.
    await expect(promoteCanary({ target })).rejects.toMatchObject({ code: 'no-canary' });
    await expect(abortCanary({ target })).rejects.toMatchObject({ code: 'no-canary' });
    await startCanary({ from: fakeBuild('1.2.0+cccc'), target, percent: 10 });
    expect((await readRollout(target)).canary.version).toBe('1.2.0+cccc');
  });

  it('a plain deploy or rollback while a canary runs ends it: the split always names the live version as stable', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10 });
    await deploy({ from: fakeBuild('1.2.0+cccc'), target, now: at('2026-11-26T05:00:00.000Z') });
    expect(await readRollout(target)).toEqual({
      stable: '1.2.0+cccc',
      canary: null,
      ended: { version: '1.1.0+bbbb', outcome: 'aborted', reason: 'deploy of 1.2.0+cccc while the canary ran', at: '2026-11-26T05:00:00.000Z' },
    });
    await rollback({ target });
    expect(await readRollout(target)).toMatchObject({ stable: '1.0.0+aaaa', canary: null, ended: { version: '1.1.0+bbbb' } });
  });

  it('a site that never ran a canary has no rollout file (the live manifest is stable for everyone)', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await deploy({ from: fakeBuild('1.1.0+bbbb'), target });
    expect(await readRollout(target)).toBeNull();
  });
});

describe('the rollout file at a static origin', () => {
  it('is served revalidated (no-cache), and a change is seen at once', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await startCanary({ from: fakeBuild('1.1.0+bbbb'), target, percent: 10 });
    const origin = await serveDirectory({ dir: target });
    try {
      const first = await fetch(`${origin.url}/rollout.json`);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect((await first.json()).canary.version).toBe('1.1.0+bbbb');
      await abortCanary({ target });
      expect((await (await fetch(`${origin.url}/rollout.json`)).json()).canary).toBeNull();
    } finally {
      await origin.close();
    }
  });
});

/** A site answering the operators' JSON on loopback, counting requests and their tokens. */
async function fakeSite(body, { token = 'op-secret' } = {}) {
  const seen = [];
  const server = http.createServer((request, response) => {
    seen.push({ url: request.url, authorization: request.headers.authorization });
    if (request.url !== '/health/remotes.json') return response.writeHead(404).end();
    if (request.headers.authorization !== `Bearer ${token}`) return response.writeHead(401).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

const siteHealth = {
  failureWindowSeconds: 900,
  remotes: [
    {
      name: 'mf-test',
      buildVersion: '1.0.0+aaaa',
      failures: { total: 9, browser: {}, server: {}, browserVersions: { '1.1.0+bbbb': 8 }, serverVersions: { '1.1.0+bbbb': 1, '1.0.0+aaaa': 1 }, views: { '1.0.0+aaaa': 20, '1.1.0+bbbb': 10 } },
      // The shape of shell/src/server/health/remotesHealth.ts RemoteCanaryHealth.
      canary: {
        share: 0.5,
        startedAt: '2026-11-26T03:00:00.000Z',
        state: 'ended',
        stable: { version: '1.0.0+aaaa', views: 20, failures: 1, failureRate: 0.05 },
        canary: { version: '1.1.0+bbbb', views: 10, failures: 9, failureRate: 0.9 },
        verdict: null,
        ended: { version: '1.1.0+bbbb', outcome: 'rolled-back', reason: 'canary fails 90.0 % of 10 views', at: '2026-11-26T03:01:00.000Z' },
      },
    },
  ],
};

describe('status against the site', () => {
  it('shows both versions with views and failure rates, and why the canary ended', () => {
    expect(formatRemoteStatus(siteHealth, 'mf-test')).toEqual([
      '  site:        last 15 minutes, per build (server live: 1.0.0+aaaa)',
      '    stable 1.0.0+aaaa  views 20  failures 1  (5.0 %)',
      '    canary 1.1.0+bbbb  views 10  failures 9  (90.0 %)',
      '  canary:      1.1.0+bbbb rolled-back at 2026-11-26T03:01:00.000Z: canary fails 90.0 % of 10 views',
    ]);
    expect(formatRemoteStatus(siteHealth, 'mf-other')).toEqual(["  site:        mf-other is not one of the site's remotes"]);
  });

  it('says what to fix: no token, a wrong one, the view off, nobody answering', async () => {
    const site = await fakeSite(siteHealth);
    try {
      expect(await fetchSiteHealth({ site: site.url })).toEqual({ ok: false, error: expect.stringContaining('OPERATOR_TOKEN is not set') });
      expect(await fetchSiteHealth({ site: site.url, token: 'wrong' })).toEqual({ ok: false, error: expect.stringContaining('refused the operator token (401)') });
      expect(await fetchSiteHealth({ site: `${site.url}/`, token: 'op-secret' })).toEqual({ ok: true, body: siteHealth });
      expect(site.seen.at(-1)).toEqual({ url: '/health/remotes.json', authorization: 'Bearer op-secret' });
    } finally {
      await site.close();
    }
    expect(await fetchSiteHealth({ site: site.url, token: 'op-secret', timeoutMs: 2000 })).toEqual({ ok: false, error: expect.stringContaining('did not answer') });
    expect(await fetchSiteHealth({ site: 'not a url', token: 'x' })).toEqual({ ok: false, error: expect.stringContaining('is not a URL') });
  });
});

describe('the CLI', () => {
  it('runs a canary from a remote folder: --canary, status with the site, --abort, --promote, with clear refusals', async () => {
    const remoteDir = path.join(work, 'mf-test');
    mkdirSync(remoteDir);
    writeFileSync(path.join(remoteDir, 'package.json'), JSON.stringify({ name: 'mf-test' }));
    const run = (args, env = {}) => promisify(execFile)(process.execPath, [CLI, ...args], { cwd: remoteDir, env: { ...process.env, PUBLIC_BASE_URL: '', OPERATOR_TOKEN: '', ...env } });
    fakeBuild('1.0.0+aaaa', path.join(remoteDir, 'dist'));
    await run(['deploy', '--to', target]);
    rmSync(path.join(remoteDir, 'dist'), { recursive: true });
    fakeBuild('1.1.0+bbbb', path.join(remoteDir, 'dist'));
    expect((await run(['deploy', '--to', target, '--canary', '10'])).stdout).toContain(`mf-test: 1.1.0+bbbb published; canary for 10 % of visitors in ${target} (stable: 1.0.0+aaaa)`);

    const site = await fakeSite(siteHealth);
    try {
      const status = (await run(['status', '--to', target, '--site', site.url], { OPERATOR_TOKEN: 'op-secret' })).stdout;
      expect(status).toMatch(/canary:\s+1\.1\.0\+bbbb for 10 % since /);
      expect(status).toContain('    canary 1.1.0+bbbb  views 10  failures 9  (90.0 %)');
      expect(status).toContain('rolled-back at 2026-11-26T03:01:00.000Z: canary fails 90.0 % of 10 views');
      const noToken = await run(['status', '--to', target], { PUBLIC_BASE_URL: site.url }).catch((error) => error);
      expect(noToken.code).toBe(1);
      expect(noToken.stderr).toContain('OPERATOR_TOKEN is not set');
    } finally {
      await site.close();
    }
    expect((await run(['status', '--to', target])).stdout).toContain('no --site or PUBLIC_BASE_URL');

    expect((await run(['deploy', '--to', target, '--abort', '--reason', 'looks wrong'])).stdout).toContain('mf-test: canary 1.1.0+bbbb aborted');
    expect((await readRollout(target)).ended).toMatchObject({ outcome: 'aborted', reason: 'looks wrong' });
    const nothing = await run(['deploy', '--to', target, '--promote']).catch((error) => error);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain('no canary is running');
    await run(['deploy', '--to', target, '--canary', '25%']);
    expect((await run(['deploy', '--to', target, '--promote'])).stdout).toContain('mf-test: canary 1.1.0+bbbb promoted, live for everyone');
    expect(liveVersion()).toBe('1.1.0+bbbb');

    for (const args of [['deploy', '--canary', '0'], ['deploy', '--canary', 'ten'], ['deploy', '--canary', '10', '--promote'], ['rollback', '--abort'], ['deploy', '--reason', 'x']]) {
      const usage = await run([...args, '--to', target]).catch((error) => error);
      expect(usage.code, args.join(' ')).toBe(2);
    }
  });
});
