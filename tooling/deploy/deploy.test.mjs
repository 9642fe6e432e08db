import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { serveDirectory } from '@khs/static-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeployError, deploy, liveStack, publish, publishedVersions, readDeployments, rebaseManifest, rollback, switchTo } from './index.mjs';

const CLI = path.join(import.meta.dirname, 'cli.mjs');
import { parseExpires, verifyPreview } from './previewLink.mjs';
let work;
let target;

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'khs-deploy-test-'));
  target = path.join(work, 'origin');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** A remote's build as tooling/rspack-preset writes it, with a manifest big enough to be precompressed. */
function fakeBuild(version, { label = version, dir = path.join(work, `dist-${version}-${Math.random().toString(36).slice(2)}`) } = {}) {
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  const entry = `remoteEntry.${version.replace(/\W/g, '').slice(-8).padStart(8, '0')}.js`;
  writeFileSync(path.join(dir, entry), `/* ${label} */ var mf_test = {};`);
  writeFileSync(path.join(dir, 'expose.0badc0de.js'), `export const label = ${JSON.stringify(label)};`);
  writeFileSync(path.join(dir, 'expose.0badc0de.css'), '.x{color:red}');
  writeFileSync(path.join(dir, 'server', 'remoteEntry.js'), `module.exports = ${JSON.stringify(label)};`);
  const manifest = {
    id: 'mf_test',
    name: 'mf_test',
    metaData: {
      name: 'mf_test',
      buildVersion: version,
      buildInfo: { buildVersion: '0.1.0', buildName: 'mf-test' },
      publicPath: 'auto',
      remoteEntry: { name: entry, path: '', type: 'global' },
      ssrRemoteEntry: { path: 'server/', name: 'remoteEntry.js', type: 'commonjs-module' },
      serverExposes: ['Widget'],
      padding: 'x'.repeat(2000),
    },
    shared: [{ id: 'mf_test:react', name: 'react', assets: { js: { sync: ['react.12345678.js'], async: [] }, css: { sync: [], async: [] } } }],
    remotes: [],
    exposes: [
      { id: 'mf_test:Widget', name: 'Widget', path: './Widget', assets: { js: { sync: ['expose.0badc0de.js'], async: [] }, css: { sync: ['expose.0badc0de.css'], async: [] } } },
    ],
  };
  writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest, null, 2));
  return dir;
}

const liveManifest = () => JSON.parse(readFileSync(path.join(target, 'mf-manifest.json'), 'utf8'));
const compressedLive = (suffix) => {
  const body = readFileSync(path.join(target, `mf-manifest.json${suffix}`));
  return JSON.parse((suffix === '.br' ? zlib.brotliDecompressSync(body) : zlib.gunzipSync(body)).toString('utf8'));
};

describe('publish', () => {
  it('copies the whole build into versions/<buildVersion>/ and leaves the live manifest alone', async () => {
    const from = fakeBuild('1.0.0+aaaa');
    const result = await publish({ from, target });
    expect(result).toEqual({ version: '1.0.0+aaaa', dir: path.join(target, 'versions', '1.0.0+aaaa'), alreadyPublished: false });
    expect(readdirSync(result.dir, { recursive: true }).sort()).toEqual(readdirSync(from, { recursive: true }).sort());
    expect(existsSync(path.join(target, 'mf-manifest.json'))).toBe(false);
    // No staging folder stays behind.
    expect(readdirSync(path.join(target, 'versions'))).toEqual(['1.0.0+aaaa']);
  });

  it('refuses to overwrite a published version with other files, and keeps the published one', async () => {
    await publish({ from: fakeBuild('1.0.0+aaaa', { label: 'first' }), target });
    const error = await publish({ from: fakeBuild('1.0.0+aaaa', { label: 'second' }), target }).catch((caught) => caught);
    expect(error).toBeInstanceOf(DeployError);
    expect(error.code).toBe('version-conflict');
    expect(readFileSync(path.join(target, 'versions/1.0.0+aaaa/expose.0badc0de.js'), 'utf8')).toContain('"first"');
  });

  it('accepts the identical build again without copying (same version, same files)', async () => {
    const from = fakeBuild('1.0.0+aaaa');
    await publish({ from, target });
    await expect(publish({ from, target })).resolves.toMatchObject({ alreadyPublished: true });
  });

  it('refuses a build without a build version, or one that cannot name a folder', async () => {
    const from = fakeBuild('1.0.0+aaaa');
    const manifest = JSON.parse(readFileSync(path.join(from, 'mf-manifest.json'), 'utf8'));
    delete manifest.metaData.buildVersion;
    writeFileSync(path.join(from, 'mf-manifest.json'), JSON.stringify(manifest));
    await expect(publish({ from, target })).rejects.toMatchObject({ code: 'no-version' });
    manifest.metaData.buildVersion = '../escape';
    writeFileSync(path.join(from, 'mf-manifest.json'), JSON.stringify(manifest));
    await expect(publish({ from, target })).rejects.toMatchObject({ code: 'bad-version' });
    await expect(publish({ from: path.join(work, 'missing'), target })).rejects.toMatchObject({ code: 'not-built' });
  });
});

describe('switch', () => {
  it('serves the published version from the root manifest, every path rebased onto its folder', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target, now: () => new Date('2026-01-02T03:04:05Z') });
    const manifest = liveManifest();
    expect(manifest.metaData.buildVersion).toBe('1.0.0+aaaa');
    expect(manifest.metaData.publicPath).toBe('auto');
    expect(manifest.metaData.deployedAt).toBe('2026-01-02T03:04:05.000Z');
    expect(manifest.metaData.remoteEntry.path).toBe('versions/1.0.0+aaaa/');
    expect(manifest.metaData.ssrRemoteEntry.path).toBe('versions/1.0.0+aaaa/server/');
    expect(manifest.exposes[0].assets.js.sync).toEqual(['versions/1.0.0+aaaa/expose.0badc0de.js']);
    expect(manifest.exposes[0].assets.css.sync).toEqual(['versions/1.0.0+aaaa/expose.0badc0de.css']);
    expect(manifest.shared[0].assets.js.sync).toEqual(['versions/1.0.0+aaaa/react.12345678.js']);
    // Each rebased path names a file that exists.
    const entry = path.join(target, manifest.metaData.remoteEntry.path, manifest.metaData.remoteEntry.name);
    expect(existsSync(entry)).toBe(true);
    // The precompressed copies say the same.
    expect(compressedLive('.br')).toEqual(manifest);
    expect(compressedLive('.gz')).toEqual(manifest);
    expect(await readDeployments(target)).toEqual({
      current: '1.0.0+aaaa',
      history: [{ action: 'deploy', version: '1.0.0+aaaa', previous: null, at: '2026-01-02T03:04:05.000Z' }],
    });
  });

  it('refuses to switch to a version that is not published', async () => {
    await expect(switchTo({ target, version: '9.9.9+none' })).rejects.toMatchObject({ code: 'unknown-version' });
    await expect(switchTo({ target, version: '../x' })).rejects.toMatchObject({ code: 'bad-version' });
  });

  it('deploying the live version again changes nothing', async () => {
    const from = fakeBuild('1.0.0+aaaa');
    await deploy({ from, target });
    const again = await deploy({ from, target });
    expect(again).toMatchObject({ changed: false, alreadyPublished: true });
    expect((await readDeployments(target)).history).toHaveLength(1);
  });

  it('is safe under concurrent deploys: readers always see a whole manifest of a published version, the record lists every switch', async () => {
    const versions = Array.from({ length: 8 }, (_, index) => `1.0.${index}+cafe${index}`);
    const builds = versions.map((version) => fakeBuild(version));
    await deploy({ from: builds[0], target });
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        for (const suffix of ['', '.br', '.gz']) {
          const manifest = suffix ? compressedLive(suffix) : liveManifest();
          expect(versions).toContain(manifest.metaData.buildVersion);
          expect(existsSync(path.join(target, manifest.metaData.remoteEntry.path, manifest.metaData.remoteEntry.name))).toBe(true);
          reads += 1;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    // Four in this process (interleaved at every await) and three other processes through the CLI.
    const remoteDir = path.join(work, 'mf-test');
    mkdirSync(remoteDir);
    writeFileSync(path.join(remoteDir, 'package.json'), JSON.stringify({ name: 'mf-test' }));
    const run = promisify(execFile);
    await Promise.all([
      ...builds.slice(1, 5).map((from) => deploy({ from, target })),
      ...builds.slice(5).map((from) => run(process.execPath, [CLI, 'deploy', '--to', target, '--from', from], { cwd: remoteDir })),
    ]);
    reading = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    const record = await readDeployments(target);
    expect(record.history.map((entry) => entry.version).sort()).toEqual([...versions].sort());
    // Each switch names the one before it: no switch was lost between two others.
    for (let index = 1; index < record.history.length; index += 1) expect(record.history[index].previous).toBe(record.history[index - 1].version);
    expect(liveManifest().metaData.buildVersion).toBe(record.current);
    expect(compressedLive('.br').metaData.buildVersion).toBe(record.current);
    // No temporary file or lock is left.
    expect(readdirSync(target).sort()).toEqual(['deployments.json', 'mf-manifest.json', 'mf-manifest.json.br', 'mf-manifest.json.gz', 'versions']);
  });
});

describe('rollback', () => {
  it('switches back to the version before, then the one before that, and says when there is none', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    await deploy({ from: fakeBuild('1.1.0+bbbb'), target });
    await deploy({ from: fakeBuild('1.2.0+cccc'), target });
    await expect(rollback({ target })).resolves.toEqual({ version: '1.1.0+bbbb', previous: '1.2.0+cccc' });
    expect(liveManifest().metaData.buildVersion).toBe('1.1.0+bbbb');
    expect(compressedLive('.br').metaData.buildVersion).toBe('1.1.0+bbbb');
    await expect(rollback({ target })).resolves.toEqual({ version: '1.0.0+aaaa', previous: '1.1.0+bbbb' });
    await expect(rollback({ target })).rejects.toMatchObject({ code: 'nothing-to-roll-back' });
    expect(liveManifest().metaData.buildVersion).toBe('1.0.0+aaaa');
    // Every version stays published: a rollback deletes nothing.
    expect(readdirSync(path.join(target, 'versions')).sort()).toEqual(['1.0.0+aaaa', '1.1.0+bbbb', '1.2.0+cccc']);
    const record = await readDeployments(target);
    expect(record.history.map((entry) => `${entry.action} ${entry.version}`)).toEqual([
      'deploy 1.0.0+aaaa',
      'deploy 1.1.0+bbbb',
      'deploy 1.2.0+cccc',
      'rollback 1.1.0+bbbb',
      'rollback 1.0.0+aaaa',
    ]);
  });

  it('after a rollback and a new deploy, rolls back to the version that was live before the new one', () => {
    const history = ['deploy v1', 'deploy v2', 'rollback v1', 'deploy v3'].map((line) => {
      const [action, version] = line.split(' ');
      return { action, version };
    });
    expect(liveStack(history)).toEqual(['v1', 'v3']);
  });
});

describe('the CLI', () => {
  it('deploys, rolls back and reports from a remote folder, with clear errors', async () => {
    const remoteDir = path.join(work, 'mf-test');
    mkdirSync(remoteDir);
    writeFileSync(path.join(remoteDir, 'package.json'), JSON.stringify({ name: 'mf-test' }));
    const run = (...args) => promisify(execFile)(process.execPath, [CLI, ...args], { cwd: remoteDir });
    const v1 = fakeBuild('1.0.0+aaaa', { dir: path.join(remoteDir, 'dist') });
    expect((await run('deploy', '--to', target)).stdout).toContain(`mf-test: 1.0.0+aaaa published and live in ${target} (was none)`);
    rmSync(v1, { recursive: true });
    fakeBuild('1.1.0+bbbb', { dir: path.join(remoteDir, 'dist') });
    await run('deploy', '--to', target);
    expect((await run('rollback', '--to', target)).stdout).toContain(`mf-test: rolled back to 1.0.0+aaaa in ${target} (was 1.1.0+bbbb)`);
    expect((await run('status', '--to', target)).stdout).toMatch(/live:\s+1\.0\.0\+aaaa/);
    const refused = await run('rollback', '--to', target).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no earlier version to roll back to');
    const usage = await run('publish').catch((error) => error);
    expect(usage.code).toBe(2);
  });
});

describe('the CLI: --preview', () => {
  it('publishes without making the build live and prints a signed link to the site; without a secret it refuses before publishing', async () => {
    const remoteDir = path.join(work, 'mf-test');
    mkdirSync(remoteDir);
    writeFileSync(path.join(remoteDir, 'package.json'), JSON.stringify({ name: 'mf-test' }));
    const secret = 'operators-preview-secret-0123';
    const run = (env, ...args) =>
      promisify(execFile)(process.execPath, [CLI, ...args], { cwd: remoteDir, env: { PATH: process.env.PATH, DATA_DIR: path.join(work, 'no-data'), ...env } });
    fakeBuild('1.0.0+aaaa', { dir: path.join(remoteDir, 'dist') });
    await run({}, 'deploy', '--to', target);
    rmSync(path.join(remoteDir, 'dist'), { recursive: true });
    fakeBuild('1.1.0+bbbb', { dir: path.join(remoteDir, 'dist') });

    const refused = await run({}, 'deploy', '--preview', '--to', target).catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('REMOTE_PREVIEW_SECRET');
    expect(await publishedVersions(target)).toEqual(['1.0.0+aaaa']);

    const { stdout } = await run({ REMOTE_PREVIEW_SECRET: secret, PUBLIC_BASE_URL: 'https://site.test' }, 'deploy', '--preview', '--to', target);
    expect(stdout).toContain(`mf-test: 1.1.0+bbbb published in ${target}, not live`);
    expect(liveManifest().metaData.buildVersion).toBe('1.0.0+aaaa');
    expect(await publishedVersions(target)).toEqual(['1.0.0+aaaa', '1.1.0+bbbb']);
    const link = new URL(/preview link \(valid 24 h\): (\S+)/.exec(stdout)[1]);
    expect(link.origin + link.pathname).toBe('https://site.test/__preview');
    const preview = { remote: link.searchParams.get('remote'), version: link.searchParams.get('version'), expires: parseExpires(link.searchParams.get('expires')), sig: link.searchParams.get('sig') };
    expect(preview).toMatchObject({ remote: 'mf-test', version: '1.1.0+bbbb' });
    expect(verifyPreview(preview, secret)).toBe(true);
    // --site wins over PUBLIC_BASE_URL.
    const other = await run({ REMOTE_PREVIEW_SECRET: secret, PUBLIC_BASE_URL: 'https://site.test' }, 'deploy', '--preview', '--site', 'http://127.0.0.1:4300', '--to', target);
    expect(other.stdout).toContain('http://127.0.0.1:4300/__preview?remote=mf-test&version=1.1.0%2Bbbbb');
    const misplaced = await run({ REMOTE_PREVIEW_SECRET: secret }, 'rollback', '--preview', '--to', target).catch((error) => error);
    expect(misplaced.code).toBe(2);
  });
});

describe('a static origin serving the target', () => {
  it('serves the switched manifest revalidated and the versions immutable, and picks up a switch at once', async () => {
    await deploy({ from: fakeBuild('1.0.0+aaaa'), target });
    const origin = await serveDirectory({ dir: target });
    try {
      const manifestResponse = await fetch(`${origin.url}/mf-manifest.json`, { headers: { 'accept-encoding': 'br' } });
      expect(manifestResponse.headers.get('content-encoding')).toBe('br');
      expect(manifestResponse.headers.get('cache-control')).toBe('no-cache');
      const etag = manifestResponse.headers.get('etag');
      const manifest = await manifestResponse.json();
      expect(manifest.metaData.buildVersion).toBe('1.0.0+aaaa');
      expect((await fetch(`${origin.url}/mf-manifest.json`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } })).status).toBe(304);

      const entry = await fetch(`${origin.url}/${manifest.metaData.remoteEntry.path}${manifest.metaData.remoteEntry.name}`);
      expect(entry.status).toBe(200);
      expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(entry.headers.get('access-control-allow-origin')).toBe('*');
      expect(await entry.text()).toContain('1.0.0+aaaa');

      await deploy({ from: fakeBuild('1.1.0+bbbb'), target });
      const switched = await fetch(`${origin.url}/mf-manifest.json`, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
      expect(switched.status).toBe(200);
      expect((await switched.json()).metaData.buildVersion).toBe('1.1.0+bbbb');
      // The old version is still there for pages that started with it.
      expect((await fetch(`${origin.url}/versions/1.0.0+aaaa/expose.0badc0de.js`)).status).toBe(200);
      // What the root does not hold comes from the live version, revalidated.
      const aliased = await fetch(`${origin.url}/expose.0badc0de.js`);
      expect(await aliased.text()).toContain('1.1.0+bbbb');
      expect(aliased.headers.get('cache-control')).toBe('no-cache');
      expect((await fetch(`${origin.url}/versions/..%2f..%2fetc/passwd`)).status).toBe(404);
    } finally {
      await origin.close();
    }
  });
});

describe('rebaseManifest', () => {
  it('refuses a build with a fixed publicPath (its files would not come from the version folder)', () => {
    expect(() => rebaseManifest({ metaData: { publicPath: 'https://cdn.example/x/', remoteEntry: { path: '', name: 'r.js' } } }, 'v1')).toThrow(/publicPath/);
  });
});
