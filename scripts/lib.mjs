// Small helpers shared by the repository scripts (start, test-all, bench).
import { spawn } from 'node:child_process';
import net from 'node:net';

export const ROOT = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
export const REMOTES = [
  { name: 'mf-search', port: 4310 },
  { name: 'mf-watchlist', port: 4311 },
  { name: 'mf-survey', port: 4312 },
  { name: 'mf-widgets', port: 4313 },
];

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

/** `preferred` when it is free on `host`, else any free port. */
export function portOrFree(preferred, host = '127.0.0.1') {
  const tryListen = (port) =>
    new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(null));
      server.listen(port, host, () => {
        const actual = server.address().port;
        server.close(() => resolve(actual));
      });
    });
  return tryListen(preferred).then((port) => port ?? tryListen(0));
}
