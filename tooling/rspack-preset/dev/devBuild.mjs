// Node side of a remote's dev build (`npm run dev -w <remote>`, tooling/stack/devSite.mjs): the
// expose wrappers that let an open page swap in a rebuilt island (hotIslandMount.mjs), and the
// build version a dev build gets once both of its targets are written (the production builds get it
// from BuildVersionPlugin on their last compilation; in watch mode a browser-only change does not
// rebuild the server target, so the version is written after every rebuild instead).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { computeBuildVersion } from '../buildVersion.mjs';

const HOT_ISLAND_MOUNT = path.join(import.meta.dirname, 'hotIslandMount.mjs');

/**
 * Writes one wrapper module per browser expose into `wrapperDir` and returns the exposes pointing
 * at them. A wrapper re-exports the real module and wraps its default `mount` with
 * `hotIslandMount`, which remounts the island in place when its remote is rebuilt.
 * @param {{ dir: string, remote: string, exposes: Record<string, string>, wrapperDir: string }} options
 *   `remote` is the island prefix the page uses (`mf-search`), `dir` the remote's folder.
 * @returns {Record<string, string>} the same expose names, each pointing at its wrapper
 */
export function hotIslandExposes({ dir, remote, exposes, wrapperDir }) {
  mkdirSync(wrapperDir, { recursive: true });
  return Object.fromEntries(
    Object.entries(exposes).map(([key, file]) => {
      const expose = key.replace(/^\.\//, '');
      const real = JSON.stringify(path.resolve(dir, file));
      const wrapper = path.join(wrapperDir, `${expose}.mjs`);
      writeFileSync(
        wrapper,
        `import * as exposed from ${real};\n` +
          `import { hotIslandMount } from ${JSON.stringify(HOT_ISLAND_MOUNT)};\n` +
          `export * from ${real};\n` +
          `export default hotIslandMount(exposed.default, { remote: ${JSON.stringify(remote)}, expose: ${JSON.stringify(expose)} });\n`,
      );
      return [key, wrapper];
    }),
  );
}

/**
 * Writes `metaData.buildVersion` into `<outDir>/mf-manifest.json` (the package version plus a hash
 * of every file of the build, as production builds do) and returns it.
 * @param {string} dir the remote's folder (its package.json gives the version)
 * @param {string} outDir the dev build's folder
 */
export function writeDevBuildVersion(dir, outDir) {
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = path.join(outDir, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.metaData.buildVersion = computeBuildVersion(outDir, version);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  return manifest.metaData.buildVersion;
}
