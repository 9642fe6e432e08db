// A changed copy of a remote's build, for tests that redeploy a remote (its origin then serves it).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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
  const manifestFile = path.join(dir, 'mf-manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.metaData.buildInfo.buildVersion = path.basename(dir);
  manifest.metaData.buildVersion = path.basename(dir);
  writeFileSync(manifestFile, JSON.stringify(manifest));
  change(dir);
  dropStalePrecompressedCopies(dir);
  return dir;
}

function dropStalePrecompressedCopies(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    const extension = path.extname(file);
    if (extension !== '.br' && extension !== '.gz') continue;
    const original = file.slice(0, -extension.length);
    // Compared by content, not by modification time: the kernel's file clock is coarser than
    // Date.now(), so a file changed right after the copy may look older than the copy.
    let stale: boolean;
    try {
      const compressed = readFileSync(file);
      const unpacked = extension === '.br' ? brotliDecompressSync(compressed) : gunzipSync(compressed);
      stale = !unpacked.equals(readFileSync(original));
    } catch {
      stale = true; // the original was removed
    }
    if (stale) rmSync(file, { force: true });
  }
}

/**
 * Builds `remote` (browser and server) from a copy of its sources with `edits` applied (each
 * `from` must occur in its file), in a fresh folder under `VARIANTS_DIR`; returns the build's
 * `dist` and its build version. A real build: the server HTML and the browser code change alike.
 */
export async function buildRemoteFromChangedSource(
  remote: string,
  edits: ReadonlyArray<{ file: string; from: string; to: string }>,
): Promise<{ dist: string; version: string; work: string }> {
  mkdirSync(VARIANTS_DIR, { recursive: true });
  const work = mkdtempSync(path.join(VARIANTS_DIR, `${remote}-source-`));
  const source = path.join(work, remote);
  for (const entry of ['src', 'package.json', 'rspack.config.mjs', 'tsconfig.json', 'slice.json']) {
    cpSync(path.join(REPO_ROOT, remote, entry), path.join(source, entry), { recursive: true });
  }
  for (const edit of edits) {
    const file = path.join(source, edit.file);
    const original = readFileSync(file, 'utf8');
    if (!original.includes(edit.from)) throw new Error(`${remote}/${edit.file} does not contain ${JSON.stringify(edit.from)}`);
    writeFileSync(file, original.replace(edit.from, edit.to));
  }
  await promisify(execFile)(path.join(REPO_ROOT, 'node_modules/.bin/rspack'), ['build', '--mode', 'production'], { cwd: source });
  const dist = path.join(source, 'dist');
  const version = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8')).metaData.buildVersion as string;
  return { dist, version, work };
}
