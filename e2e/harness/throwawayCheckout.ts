// A throwaway copy of the whole checkout in a temporary folder (for tests that edit sources, e.g.
// the dev loop): every file but `.git` and what runs leave behind, each `node_modules` a symlink to
// this checkout's (so workspaces and dependencies still resolve; nothing is installed).
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What is not copied: git, run data, reports, and `.tools` (the Node toolchain of
 * `scripts/with-node24.sh`, 189 of the checkout's 204 MB: the copy runs with this process's Node;
 * copying it made the dev loop's start minutes longer on a busy machine). `node_modules` folders
 * become symlinks instead.
 */
const SKIPPED = new Set(['.git', '.tools', '.data', '.data-dev', '.origins', '.bench', '.e2e-variants', 'test-results', 'playwright-report']);

export interface ThrowawayCheckout {
  /** The copy's root. */
  root: string;
  /** Removes the copy (the symlinked `node_modules` stay untouched). */
  remove(): void;
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
  for (const relative of linked) symlinkSync(path.join(repoRoot, relative), path.join(root, relative), 'dir');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
