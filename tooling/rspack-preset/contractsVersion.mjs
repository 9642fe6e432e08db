// Which contracts a build is made against: the version goes into the remote's manifest
// (`metaData.contractsVersion`), where the shell's browser runtime and server loader read it to
// refuse a remote of another contracts major (contracts `contractsCompatibility`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The contracts package a build in `dir` compiles against: `contractsDir` when given (a fixture
 * build against another version), else the one `dir` resolves.
 * @param {string} dir
 * @param {string} [contractsDir]
 * @returns {{ dir: string, version: string }}
 */
export function contractsPackage(dir, contractsDir) {
  let current = contractsDir ?? path.dirname(createRequire(path.join(dir, 'package.json')).resolve('contracts'));
  for (;;) {
    const file = path.join(current, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      if (pkg.name === 'contracts') return { dir: current, version: pkg.version };
    }
    const parent = path.dirname(current);
    if (parent === current) throw new Error(`no contracts package.json above ${contractsDir ?? dir}`);
    current = parent;
  }
}

/** Writes `metaData.contractsVersion` into the browser build's `mf-manifest.json` after emit. */
export class ContractsVersionManifestPlugin {
  /** @param {string} version */
  constructor(version) {
    this.version = version;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tap('ContractsVersionManifestPlugin', () => {
      const file = path.join(compiler.options.output.path, 'mf-manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.metaData.contractsVersion = this.version;
      writeFileSync(file, JSON.stringify(manifest, null, 2));
    });
  }
}
