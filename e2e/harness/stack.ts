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
  /** Stops the search server (only with `separateSearchServer`). */
  stopSearch(): Promise<void>;
  /** Redeploys a remote: its origin serves `dir` from now on (its own `dist` again when omitted). */
  serveRemote(name: RemoteName, dir?: string): void;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Run the search server as its own process so a test can stop it. Default false. */
  separateSearchServer?: boolean;
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

async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become healthy within ${timeoutMs} ms`);
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

  let searchChild: ChildProcess | undefined;
  if (options.separateSearchServer) {
    const port = await freePort();
    searchChild = spawn(TSX, ['search-engine/src/cli/start.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        SEARCH_HOST: '127.0.0.1',
        SEARCH_PORT: String(port),
        SEARCH_DATA_DIR: path.join(dataDir, 'search'),
        TYPESENSE_API_KEY: ADMIN_API_KEY,
        TYPESENSE_SEARCH_API_KEY: SEARCH_API_KEY,
      },
      stdio: 'ignore',
    });
    await waitForHealth(`http://127.0.0.1:${port}/health`);
    env.TYPESENSE_HOST = '127.0.0.1';
    env.TYPESENSE_PORT = String(port);
  } else {
    env.TYPESENSE_PORT = '0';
  }

  // From the shell's folder, so tsx compiles it with the shell's tsconfig (JSX).
  const shell = await startProcess(['src/server/main.ts'], env, 'shell', path.join(REPO_ROOT, 'shell'));
  return {
    url: shell.line.url!,
    remotes,
    searchUrl: shell.line.searchUrl!,
    serveRemote(name, dir) {
      servers.find(([candidate]) => candidate === name)![1].serve(dir ?? path.join(REPO_ROOT, name, 'dist'));
    },
    async stopSearch() {
      if (!searchChild) throw new Error('stopSearch needs { separateSearchServer: true }');
      await stopProcess(searchChild);
    },
    async close() {
      await stopProcess(shell.child);
      if (searchChild) await stopProcess(searchChild);
      await Promise.all(servers.map(([, server]) => server.close()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
