// A remote's static origin as its own process (tooling/static-server's CLI over the folder the
// stack serves), as a CDN runs it. The fuzz corpus is sent to these rather than to the stack's
// in-process origins: a request that crashes an origin then shows as that process's exit (and is
// reported against the request that did it), instead of taking the test runner down with it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { REPO_ROOT } from '../harness/stack.js';

const CLI = path.join(REPO_ROOT, 'tooling/static-server/cli.mjs');

export interface OriginProcess {
  /** Where it listens now (a restart keeps the port). */
  host: string;
  port: number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Starts it again on the same port after it died; resolves once it listens. */
  restart(): Promise<void>;
  /** What it wrote to stderr last (why it died). */
  lastError(): string;
  stop(): Promise<void>;
}

function launch(dir: string, port: number): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, dir, String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the origin for ${dir} did not start: ${stderr}`));
    }, 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the origin for ${dir} exited with ${code}: ${stderr}`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /at http:\/\/[^:]+:(\d+)\//.exec(line);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({ child, port: Number(match[1]), stderr: () => stderr });
    });
  });
}

/** Serves `dir` from a process of its own on a free loopback port. */
export async function startOriginProcess(dir: string): Promise<OriginProcess> {
  let current = await launch(dir, 0);
  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
  return {
    host: '127.0.0.1',
    port: current.port,
    alive: () => running(current.child),
    lastError: () => current.stderr(),
    async restart() {
      current = await launch(dir, current.port);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (!running(current.child)) return resolve();
        current.child.once('exit', () => resolve());
        current.child.kill('SIGTERM');
      }),
  };
}
