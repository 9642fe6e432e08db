// Runs one of the repository check scripts against a throwaway file tree, as its tests need.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes `files` (path → text) into a new temporary folder and returns its path. */
export function tree(files: Record<string, string>, prefix = 'check-script-'): string {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Runs `script` with `root` as its argument: exit code and what it printed (stdout, or stderr on failure). */
export function runCheck(script: string, root: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync('node', [script, root], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const failure = error as { status: number; stderr: string };
    return { code: failure.status, output: failure.stderr };
  }
}
