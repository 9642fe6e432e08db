// Runs `npm run dev -w <remote>`'s command (tooling/stack/devCli.mjs) as a child process in a
// checkout (a throwaway copy: the dev loop's tests edit its sources) and follows its output: the
// URL it prints, and one `rebuilt` line per rebuild the shell renders with.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface DevRebuilt {
  remote: string;
  buildVersion: string;
  /** From the end of the build to the shell rendering with it. */
  msSinceBuilt: number;
  pages: number;
  /** When this process read the line (ms since the epoch). */
  seenAt: number;
}

export interface RunningDevSite {
  /** The site's URL, with a trailing slash. */
  url: string;
  /** The dev remote's manifest on its dev origin. */
  manifestUrl: string;
  /** Every rebuild so far, in order. */
  rebuilds: DevRebuilt[];
  /** Resolves with the first rebuild after the `count`-th one (0-based count of those seen before). */
  rebuildAfter(count: number, timeoutMs?: number): Promise<DevRebuilt>;
  /** Everything the command printed (for a failure message). */
  output(): string;
  /** SIGTERM (the command stops the whole site), SIGKILL after 20 s; removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the dev command for `remote` in `checkoutRoot`, on free ports, with a temporary data
 * folder; resolves once it prints its URL. `env` is added to the environment (e.g.
 * `REMOTE_REVALIDATE_MS` to take the shell's poll out of the picture).
 */
export async function startDevSite(checkoutRoot: string, remote: string, env: Record<string, string> = {}, startTimeoutMs = 240_000): Promise<RunningDevSite> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-dev-data-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(checkoutRoot, 'tooling/stack/devCli.mjs')], {
    cwd: path.join(checkoutRoot, remote),
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const rebuilds: DevRebuilt[] = [];
  const waiters: Array<() => void> = [];
  let listening: ((value: { url: string; manifestUrl: string }) => void) | undefined;
  const started = new Promise<{ url: string; manifestUrl: string }>((resolve, reject) => {
    listening = resolve;
    child.once('exit', (code) => reject(new Error(`the dev command exited (${code}) before it listened:\n${output.slice(-6000)}`)));
    setTimeout(() => reject(new Error(`the dev command did not listen within ${startTimeoutMs} ms:\n${output.slice(-6000)}`)), startTimeoutMs).unref();
  });
  const onLine = (line: string) => {
    output = (output + line + '\n').slice(-200_000);
    if (!line.startsWith('{')) return;
    try {
      const event = JSON.parse(line) as { event?: string; url?: string; manifestUrl?: string } & Omit<DevRebuilt, 'seenAt'>;
      if (event.event === 'listening' && event.url && event.manifestUrl) listening?.({ url: event.url, manifestUrl: event.manifestUrl });
      if (event.event === 'rebuilt') {
        rebuilds.push({ remote: event.remote, buildVersion: event.buildVersion, msSinceBuilt: event.msSinceBuilt, pages: event.pages, seenAt: Date.now() });
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // A line of a child's output that starts with a brace.
    }
  };
  readline.createInterface({ input: child.stdout! }).on('line', onLine);
  readline.createInterface({ input: child.stderr! }).on('line', onLine);
  const stop = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('exit', () => {
        clearTimeout(kill);
        done();
      });
      child.kill('SIGTERM');
    });
  let site: { url: string; manifestUrl: string };
  try {
    site = await started;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ...site,
    rebuilds,
    async rebuildAfter(count, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (rebuilds.length <= count) {
        if (Date.now() > deadline) throw new Error(`no rebuild after the ${count}-th within ${timeoutMs} ms:\n${output.slice(-6000)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1000).unref();
        });
      }
      return rebuilds[count]!;
    },
    output: () => output,
    stop,
  };
}
