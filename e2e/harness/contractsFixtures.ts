// Builds of a remote against other versions of contracts (the skew fixtures): a copy of the
// contracts package with another version (and, for a newer minor, what that minor adds), and a
// copy of the remote's source built against it (rspack resolves `contracts` to the copy, the
// preset records its version in the manifest's `metaData.contractsVersion`).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './stack.js';
import { VARIANTS_DIR } from './remoteVariant.js';

/** Replaces `from` by `to` in `file`; fails when `from` is not there (the source moved on). */
export function replaceInFile(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`${path.basename(file)}: ${String(from)} not found`);
  writeFileSync(file, changed);
}

/**
 * A copy of the workspace's contracts package that says it is `version` (package.json and
 * `CONTRACTS_VERSION`), changed further by `change` (its folder).
 */
export function contractsCopy(version: string, change: (dir: string) => void = () => {}): string {
  mkdirSync(VARIANTS_DIR, { recursive: true });
  const dir = mkdtempSync(path.join(VARIANTS_DIR, `contracts-${version}-`));
  for (const entry of ['src', 'package.json', 'tsconfig.json']) cpSync(path.join(REPO_ROOT, 'contracts', entry), path.join(dir, entry), { recursive: true });
  replaceInFile(path.join(dir, 'package.json'), /"version": "[^"]+"/, `"version": "${version}"`);
  replaceInFile(path.join(dir, 'src/contractsVersion.ts'), /export const CONTRACTS_VERSION = '[^']+';/, `export const CONTRACTS_VERSION = '${version}';`);
  change(dir);
  return dir;
}

/**
 * Builds a copy of `remote`'s source against the contracts package in `contractsDir`, after
 * `change` (the copy's folder) edits the source; returns the build's `dist` folder.
 */
export function buildRemoteAgainst(remote: string, contractsDir: string, change: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(path.join(VARIANTS_DIR, `${remote}-${path.basename(contractsDir)}-`));
  for (const entry of ['src', 'package.json', 'rspack.config.mjs', 'tsconfig.json', 'slice.json']) cpSync(path.join(REPO_ROOT, remote, entry), path.join(dir, entry), { recursive: true });
  replaceInFile(path.join(dir, 'rspack.config.mjs'), 'createRemoteConfig({', `createRemoteConfig({\n  contractsDir: ${JSON.stringify(contractsDir)},`);
  change(dir);
  execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--mode', 'production'], { cwd: dir, stdio: 'pipe' });
  return path.join(dir, 'dist');
}
