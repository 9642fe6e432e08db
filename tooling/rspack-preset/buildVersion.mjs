// The deployed build's version in the remote's manifest (`metaData.buildVersion`): the package
// version plus a hash of every file the builds wrote (what a deploy publishes). The same sources give the
// same version; any change to what runs gives another. tooling/deploy publishes a build under this
// name (`versions/<buildVersion>/`, never overwritten), and `/health/remotes` shows it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { precompressFile } from './precompress.mjs';

/** Compressed copies: derived from the file beside them, which is hashed. */
const COMPRESSED_COPY = /\.(br|gz)$/;
/** The manifest the version is written into: hashed without its own `metaData.buildVersion`. */
const VERSIONED_MANIFEST = 'mf-manifest.json';

/** Hex digits of the content hash in a build version. */
export const BUILD_HASH_LENGTH = 12;

/**
 * `version+hash` of the build in `distDir`: a hash of every file a deploy publishes (browser,
 * server and standalone builds, their manifests and stats), so two builds with any different file
 * have different versions, and the same sources the same one.
 */
export function computeBuildVersion(distDir, packageVersion) {
  const hash = createHash('sha256');
  const files = readdirSync(distDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !COMPRESSED_COPY.test(file))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(file === VERSIONED_MANIFEST ? manifestWithoutVersion(path.join(distDir, file)) : readFileSync(path.join(distDir, file)));
    hash.update('\0');
  }
  return `${packageVersion}+${hash.digest('hex').slice(0, BUILD_HASH_LENGTH)}`;
}

/** The manifest as the builds wrote it, before (or without) the version this plugin adds. */
function manifestWithoutVersion(file) {
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest.metaData) delete manifest.metaData.buildVersion;
  return JSON.stringify(manifest);
}

/**
 * Rspack plugin for the remote's last compilation (after its other builds are written): writes
 * `metaData.buildVersion` into `<distDir>/mf-manifest.json` and compresses it again.
 */
export class BuildVersionPlugin {
  /**
   * @param {string} dir the remote's folder (its package.json gives the version)
   * @param {string} [distDir] the build's folder; default `<dir>/dist`
   */
  constructor(dir, distDir = path.join(dir, 'dist')) {
    this.dir = dir;
    this.distDir = distDir;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('BuildVersionPlugin', async () => {
      const distDir = this.distDir;
      const { version } = JSON.parse(readFileSync(path.join(this.dir, 'package.json'), 'utf8'));
      const file = path.join(distDir, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.buildVersion = computeBuildVersion(distDir, version);
      writeFileSync(file, JSON.stringify(manifest, null, 2));
      if (compiler.options.mode !== 'development') await precompressFile(file);
    });
  }
}
