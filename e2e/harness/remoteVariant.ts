// A changed copy of a remote's build, for tests that redeploy a remote (its origin then serves it).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './stack.js';

/** Where variants are built (ignored by git). */
export const VARIANTS_DIR = path.join(REPO_ROOT, '.e2e-variants');

/**
 * Copies `remote`'s `dist`, gives its manifest a build version of its own (so the shell sees a new
 * release), applies `change`, then drops every precompressed copy (`.br`, `.gz`) whose file was
 * changed or removed: the static server would otherwise go on serving the old bytes.
 */
export function remoteBuildVariant(remote: string, change: (dir: string) => void): string {
  mkdirSync(VARIANTS_DIR, { recursive: true });
  const dir = mkdtempSync(path.join(VARIANTS_DIR, `${remote}-build-`));
  cpSync(path.join(REPO_ROOT, remote, 'dist'), dir, { recursive: true, preserveTimestamps: true });
  const copiedAt = Date.now();
  const manifestFile = path.join(dir, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.metaData.buildInfo.buildVersion = path.basename(dir);
  manifest.metaData.buildVersion = path.basename(dir);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  change(dir);
  dropStalePrecompressedCopies(dir, copiedAt);
  return dir;
}

function dropStalePrecompressedCopies(dir: string, copiedAt: number): void {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (!/\.(br|gz)$/.test(file)) continue;
    const original = file.slice(0, -path.extname(file).length);
    let changed: boolean;
    try {
      changed = statSync(original).mtimeMs >= copiedAt - 1;
    } catch {
      changed = true; // the original was removed
    }
    if (changed) rmSync(file, { force: true });
  }
}
