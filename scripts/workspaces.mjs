// The root's npm workspaces as folders: `package.json`'s `workspaces` are globs (`*`, `libs/*`,
// `tooling/*`), so a slice joins as a workspace by its folder alone. The scripts that walk the
// workspaces (test-all, bench, the deploy checks) expand them here the way npm does for these
// forms: `*` within one path segment, never a dot folder or `node_modules`, only folders holding a
// `package.json`; pattern by pattern in order, each one's matches sorted, no folder twice.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.mjs';

/** A glob segment as a regular expression (`*` = any run of characters but `/`). */
function segmentPattern(segment) {
  return new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
}

/** The folders (relative, `/`-separated) under `root` that `pattern` names. */
function expand(root, pattern) {
  let folders = [''];
  for (const segment of pattern.split('/').filter(Boolean)) {
    if (!segment.includes('*')) {
      folders = folders.map((folder) => path.posix.join(folder, segment)).filter((folder) => existsSync(path.join(root, folder)));
      continue;
    }
    const matches = segmentPattern(segment);
    folders = folders.flatMap((folder) =>
      readdirSync(path.join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules' && matches.test(entry.name))
        .map((entry) => path.posix.join(folder, entry.name))
        .sort(),
    );
  }
  return folders.filter((folder) => folder && existsSync(path.join(root, folder, 'package.json')));
}

/**
 * Every workspace folder of the repository at `root` (default this one), relative to it.
 * @param {string} [root]
 * @returns {string[]}
 */
export function workspaceFolders(root = ROOT) {
  const patterns = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces ?? [];
  return [...new Set(patterns.flatMap((pattern) => expand(root, pattern)))];
}
