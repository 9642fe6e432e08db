// A throwaway copy of the whole checkout in a temporary folder (for tests that edit sources, e.g.
// the dev loop, or add a slice): every file but `.git` and what runs leave behind. Nothing is
// installed: each workspace's own `node_modules` is a symlink to this checkout's, and the root's is
// a folder of symlinks in which npm's workspace links (relative, `@khs/stack -> ../../tooling/stack`)
// are kept as they are, so they name the copy's workspaces (the copy's registry reads the copy's
// slices), and every other package links to this checkout's.
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What is not copied: git, run data, reports, and `.tools` (the Node toolchain of
 * `scripts/with-node24.sh`, 189 of the checkout's 204 MB: the copy runs with this process's Node;
 * copying it made the dev loop's start minutes longer on a busy machine). `node_modules` folders
 * become symlinks instead.
 */
const SKIPPED = new Set(['.git', '.tools', '.data', '.data-dev', '.origins', '.bench', '.e2e-variants', 'test-results', 'playwright-report']);
/** Entries of the root `node_modules` left out of the copy's: caches a run there writes its own of. */
const SKIPPED_IN_NODE_MODULES = new Set(['.cache', '.vite', '.vitest']);

export interface ThrowawayCheckout {
  /** The copy's root. */
  root: string;
  /** Removes the copy (the symlinked `node_modules` stay untouched). */
  remove(): void;
}

/**
 * `from`'s entries in `to` (a new folder): a symlink as it is (a relative workspace link then names
 * the copy's workspace), a folder of symlinks (a scope such as `@khs`, and `.bin`, whose links are
 * relative to it) entry by entry, anything else as a symlink to the original.
 */
function linkEntries(from: string, to: string, depth = 0): void {
  mkdirSync(to);
  for (const name of readdirSync(from)) {
    if (depth === 0 && SKIPPED_IN_NODE_MODULES.has(name)) continue;
    const source = path.join(from, name);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), path.join(to, name));
    else if (depth === 0 && stat.isDirectory() && (name.startsWith('@') || name === '.bin')) linkEntries(source, path.join(to, name), depth + 1);
    else symlinkSync(source, path.join(to, name));
  }
}

/** Copies the checkout at `repoRoot` into a fresh temporary folder outside it. */
export function throwawayCheckout(repoRoot: string, prefix = 'khs-checkout-'): ThrowawayCheckout {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const linked: string[] = [];
  cpSync(repoRoot, root, {
    recursive: true,
    filter: (source) => {
      const name = path.basename(source);
      if (SKIPPED.has(name)) return false;
      if (name === 'node_modules') {
        linked.push(path.relative(repoRoot, source));
        return false;
      }
      return true;
    },
  });
  for (const relative of linked) {
    if (relative === 'node_modules') linkEntries(path.join(repoRoot, relative), path.join(root, relative));
    else symlinkSync(path.join(repoRoot, relative), path.join(root, relative), 'dir');
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
