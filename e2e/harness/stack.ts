import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { serveDirectory } from '@khs/static-server';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const REMOTE_NAMES = ['mf-search', 'mf-watchlist', 'mf-survey', 'mf-widgets'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
export const SEARCH_API_KEY = 'khs-search-dev-key';
export const ADMIN_API_KEY = 'khs-admin-dev-key';

export interface Stack {
  /** Shell origin with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** Origin of each remote's static server. */
  remotes: Record<RemoteName, string>;
  /** Base URL of the search server. */
  searchUrl: string;
  /** Origin sharing URLs and PDF links use (`PUBLIC_BASE_URL`, else the shell's own address). */
  baseUrl: string;
  /** Process id of the search server process (not its supervisor). */
  searchPid(): number;
  /** Stops the search server and its supervisor for good. */
  stopSearch(): Promise<void>;
  /** Kills the search server process (SIGKILL); resolves once the supervisor has it listening again. */
  killSearchServer(): Promise<{ pid: number; restartMs: number }>;
  /** Redeploys a remote: its origin serves `dir` from now on (its own `dist` again when omitted). */
  serveRemote(name: RemoteName, dir?: string): void;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Kept for older tests: the search server always runs as its own supervised process. */
  separateSearchServer?: boolean;
  /** Extra environment for the search server process (limits, workers). */
  searchEnv?: Record<string, string>;
  /** Extra environment for the shell. */
  env?: Record<string, string>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a child and resolves with the first stdout JSON line whose `event` is `listening`. */
function startProcess(args: string[], env: Record<string, string>, name: string, cwd = REPO_ROOT): Promise<{ child: ChildProcess; line: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${stderr}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${stderr}`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{')) return;
      try {
        const line = JSON.parse(text) as Record<string, string>;
        if (line.event === 'listening') {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ child, line });
        }
      } catch {
        // Not a status line.
      }
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface SearchSupervisor {
  child: ChildProcess;
  port: number;
  /** Pid of the current search server process. */
  pid: number;
  /** Resolves with the pid of the next (re)started server. */
  nextStart(): Promise<number>;
}

/** Starts `search-engine/src/cli/supervise.ts` and follows its `listening` lines. */
function startSearchSupervisor(env: Record<string, string>): Promise<SearchSupervisor> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['search-engine/src/cli/supervise.ts'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let supervisor: SearchSupervisor | undefined;
    let waiters: ((pid: number) => void)[] = [];
    const timer = setTimeout(() => reject(new Error(`search server did not start within 60 s:\n${output}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!supervisor) reject(new Error(`search supervisor exited with ${code}:\n${output}`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      if (!text.startsWith('{')) return;
      try {
        const line = JSON.parse(text) as { event?: string; pid: number; port: number };
        if (line.event !== 'listening') return;
        if (!supervisor) {
          clearTimeout(timer);
          supervisor = {
            child,
            port: line.port,
            pid: line.pid,
            nextStart: () => new Promise((resolveStart) => waiters.push(resolveStart)),
          };
          resolve(supervisor);
        } else {
          supervisor.pid = line.pid;
          const current = waiters;
          waiters = [];
          for (const resolveStart of current) resolveStart(line.pid);
        }
      } catch {
        // Not a status line.
      }
    });
  });
}

/** The whole site on free ports: each remote from its own origin, the search server, the shell. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-e2e-'));
  const servers = await Promise.all(
    REMOTE_NAMES.map(async (name) => {
      const dir = path.join(REPO_ROOT, name, 'dist');
      if (!existsSync(dir)) throw new Error(`${name} is not built (${dir})`);
      return [name, await serveDirectory({ dir })] as const;
    }),
  );
  const remotes = Object.fromEntries(servers.map(([name, server]) => [name, server.url])) as Record<RemoteName, string>;

  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    TYPESENSE_API_KEY: ADMIN_API_KEY,
    TYPESENSE_SEARCH_API_KEY: SEARCH_API_KEY,
    ...Object.fromEntries(REMOTE_NAMES.map((name) => [`REMOTE_${name.replace('-', '_').toUpperCase()}_URL`, `${remotes[name]}/mf-manifest.json`])),
    ...options.env,
  };

  // The search server runs as its own supervised process, as `npm start` runs it.
  const search = await startSearchSupervisor({
    ...options.searchEnv,
    SEARCH_HOST: '127.0.0.1',
    SEARCH_PORT: '0',
    SEARCH_DATA_DIR: path.join(dataDir, 'search'),
    TYPESENSE_API_KEY: ADMIN_API_KEY,
    TYPESENSE_SEARCH_API_KEY: SEARCH_API_KEY,
  });
  env.TYPESENSE_HOST = '127.0.0.1';
  env.TYPESENSE_PORT = String(search.port);

  // From the shell's folder, so tsx compiles it with the shell's tsconfig (JSX).
  const shell = await startProcess(['src/server/main.ts'], env, 'shell', path.join(REPO_ROOT, 'shell'));
  return {
    url: shell.line.url!,
    remotes,
    searchUrl: shell.line.searchUrl!,
    baseUrl: shell.line.baseUrl!,
    searchPid: () => search.pid,
    serveRemote(name, dir) {
      servers.find(([candidate]) => candidate === name)![1].serve(dir ?? path.join(REPO_ROOT, name, 'dist'));
    },
    async stopSearch() {
      await stopProcess(search.child);
    },
    async killSearchServer() {
      const killedAt = Date.now();
      const restarted = search.nextStart();
      process.kill(search.pid, 'SIGKILL');
      const pid = await restarted;
      return { pid, restartMs: Date.now() - killedAt };
    },
    async close() {
      await stopProcess(shell.child);
      await stopProcess(search.child);
      await Promise.all(servers.map(([, server]) => server.close()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
