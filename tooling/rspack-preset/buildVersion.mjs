// The deployed build's version in the remote's manifest (`metaData.buildVersion`): the package
// version plus a hash of everything the browser and server builds wrote. The same sources give the
// same version; any change to what runs gives another. tooling/deploy publishes a build under this
// name (`versions/<buildVersion>/`, never overwritten), and `/health/remotes` shows it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { precompressFile } from './precompress.mjs';

/** Files that describe the build rather than being part of it, and compressed copies of others. */
const NOT_HASHED = /(^|\/)(mf-manifest\.json|mf-stats\.json)$|\.(br|gz)$/;
/** The standalone demo page is built beside the others, in parallel: not part of the version. */
const STANDALONE_DIR = 'standalone';

/** Hex digits of the content hash in a build version. */
export const BUILD_HASH_LENGTH = 12;

/** `version+hash` of the build in `distDir` (its browser and server outputs). */
export function computeBuildVersion(distDir, packageVersion) {
  const hash = createHash('sha256');
  const files = readdirSync(distDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !NOT_HASHED.test(file) && !file.startsWith(`${STANDALONE_DIR}/`))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(distDir, file)));
    hash.update('\0');
  }
  return `${packageVersion}+${hash.digest('hex').slice(0, BUILD_HASH_LENGTH)}`;
}

/**
 * Rspack plugin for the remote's last compilation (after its browser and server builds are
 * written): writes `metaData.buildVersion` into `dist/mf-manifest.json` and compresses it again.
 */
export class BuildVersionPlugin {
  /** @param {string} dir the remote's folder (its package.json gives the version) */
  constructor(dir) {
    this.dir = dir;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('BuildVersionPlugin', async () => {
      const distDir = path.join(this.dir, 'dist');
      const { version } = JSON.parse(readFileSync(path.join(this.dir, 'package.json'), 'utf8'));
      const file = path.join(distDir, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.buildVersion = computeBuildVersion(distDir, version);
      writeFileSync(file, JSON.stringify(manifest, null, 2));
      if (compiler.options.mode !== 'development') await precompressFile(file);
    });
  }
}
