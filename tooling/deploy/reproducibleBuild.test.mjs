// Reproducible builds: the same sources give the same bytes in every file a deploy publishes, so
// `npm start` on an unchanged checkout (which deploys the fresh build to .origins/) finds its
// version already published with the same files instead of refusing it (`version-conflict`).
// mf-widgets is the remote that showed it: its server build's `mf-stats.json` attributed
// `react-dom/server`, which six exposes import, to whichever expose rspack happened to reach first.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVersionOf, deploy } from './index.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REMOTE_DIR = path.join(ROOT, 'mf-widgets');
const RSPACK = path.join(ROOT, 'node_modules/.bin/rspack');
/** The problem was intermittent (a race in a parallel build): four builds, each compared with the first. */
const BUILDS = 4;

let work;
/** @type {string[]} */
const builds = [];

/** Builds mf-widgets (browser, standalone and server builds) into `distDir`. */
async function buildRemote(distDir) {
  await promisify(execFile)(RSPACK, ['build', '--mode', 'production', '--env', `distDir=${distDir}`], {
    cwd: REMOTE_DIR,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Every file of a build folder, relative, sorted. */
function filesOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'khs-reproducible-build-'));
  for (let index = 0; index < BUILDS; index++) {
    const dir = path.join(work, `dist-${index}`);
    await buildRemote(dir);
    builds.push(dir);
  }
}, 240_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a remote built twice from the same sources', () => {
  it('writes the same files with the same bytes, under the same build version', async () => {
    const [first, ...others] = builds;
    const files = filesOf(first);
    expect(files).toContain('server/mf-stats.json');
    expect(files).toContain('standalone/index.html');
    for (const other of others) {
      expect(filesOf(other)).toEqual(files);
      const differing = files.filter((file) => !readFileSync(path.join(first, file)).equals(readFileSync(path.join(other, file))));
      expect(differing).toEqual([]);
      expect(await buildVersionOf(other)).toBe(await buildVersionOf(first));
    }
  });

  it('deploys again to an origin that has it: already published, nothing refused', async () => {
    const target = path.join(work, 'origin');
    const firstDeploy = await deploy({ from: builds[0], target });
    expect(firstDeploy).toMatchObject({ changed: true, alreadyPublished: false });
    for (const dir of builds.slice(1)) {
      await expect(deploy({ from: dir, target })).resolves.toMatchObject({ version: firstDeploy.version, changed: false, alreadyPublished: true });
    }
  });

  it("names in each expose's `requires` every shared module its own chunks consume, and the inverse in `usedIn`", () => {
    const stats = JSON.parse(readFileSync(path.join(builds[0], 'server', 'mf-stats.json'), 'utf8'));
    const requiresOf = Object.fromEntries(stats.exposes.map((expose) => [expose.name, expose.requires]));
    // Every server island renders with react-dom/server except PageWidgets (it only enhances markup).
    const rendering = ['ArticleContentsTrigger', 'ArticleWidgets', 'Dialog', 'DialogTrigger', 'FileField', 'PasswordField'];
    for (const name of rendering) expect(requiresOf[name], name).toEqual(['react-dom/server']);
    expect(requiresOf.PageWidgets).toEqual([]);
    const renderer = stats.shared.find((shared) => shared.name === 'react-dom/server');
    expect(renderer.usedIn).toEqual(stats.exposes.filter((expose) => rendering.includes(expose.name)).map((expose) => expose.file).sort());

    const manifest = JSON.parse(readFileSync(path.join(builds[0], 'mf-manifest.json'), 'utf8'));
    const browserStats = JSON.parse(readFileSync(path.join(builds[0], 'mf-stats.json'), 'utf8'));
    // The browser manifest and stats tell the same story.
    expect(Object.fromEntries(browserStats.exposes.map((expose) => [expose.name, expose.requires]))).toEqual(
      Object.fromEntries(manifest.exposes.map((expose) => [expose.name, expose.requires])),
    );
  });
});
