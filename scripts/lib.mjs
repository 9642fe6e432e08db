// Small helpers shared by the repository scripts (start, test-all, bench).
import { spawn } from 'node:child_process';

export const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

/** Runs a command with inherited output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

/** Runs a command and captures stdout (stderr passes through). */
export function capture(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], ...options });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout }));
    child.on('error', () => resolve({ code: 127, stdout }));
  });
}
