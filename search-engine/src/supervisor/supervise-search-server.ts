import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import readline from 'node:readline';

/** Options of `superviseSearchServer`. */
export interface SupervisorOptions {
  /** Folder the server keeps its collections in; every restart reuses it (no re-import). */
  dataDir: string;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 (default) picks a free one once and keeps it across restarts. */
  port?: number;
  /** Admin key. */
  adminApiKey: string;
  /** Search-only key. */
  searchApiKey: string;
  /**
   * Origins whose pages may read search answers (`SEARCH_ALLOWED_ORIGINS` of the server process).
   * Default: the inherited environment's setting, else none.
   */
  allowedOrigins?: readonly string[];
  /** Further environment for the server process (`SEARCH_WORKERS`, limits, …). */
  env?: Record<string, string | undefined>;
  /** Receives the server's output lines and the supervisor's own events. Default: nothing. */
  log?: (line: string) => void;
  /** First restart delay, doubled per crash in a row up to `maxBackoffMs`. Default 250 ms. */
  initialBackoffMs?: number;
  /** Longest restart delay. Default 10 s. */
  maxBackoffMs?: number;
  /** A server that ran this long resets the back-off. Default 30 s. */
  healthyAfterMs?: number;
}

/** A search server process kept running by a supervisor. */
export interface SupervisedSearchServer {
  /** Base URL; stays the same across restarts. */
  url: string;
  port: number;
  /** Process id of the current server process (undefined while it restarts). */
  pid(): number | undefined;
  /** Restarts so far. */
  restarts(): number;
  /** Resolves with the pid of the next server process that listens. */
  nextStart(): Promise<number>;
  /** Stops the server (SIGTERM: it folds its change log) and the supervision. */
  close(): Promise<void>;
}

/**
 * glibc malloc settings for the server process (a caller's own values win). Its worker threads
 * build posting lists by growing typed arrays; with glibc's defaults (one malloc arena per thread,
 * a dynamic mmap threshold) the freed buffers stay resident: measured at 100k articles with two
 * workers, 916 MB resident without these settings and 785 MB with them
 * (`measure/server-memory.ts`). Ignored where the C library is not glibc.
 */
export const SERVER_MALLOC_ENV: Record<string, string> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '1048576',
};

/**
 * V8 flags of the server process (every isolate in it: the HTTP thread and the workers).
 * `--heap-growing-percent=50`: after a full collection the old generation may grow by half of
 * what survived before the next one starts, instead of V8's dynamic factor of up to 4×; searches
 * promote short-lived garbage (hits, highlights) and the workers' heaps grew by 40–100 MB under
 * load. `--max-semi-space-size=2`: the HTTP thread's young generation (the workers set their own,
 * `SEARCH_WORKER_YOUNG_GENERATION_MB`); it only routes and writes bytes. Measured at 100k articles
 * with two workers after the benchmark's queries (package README, "Memory under load"): server
 * RSS 664–683 MB without, 593 MB with them, CPU per query unchanged within the noise; with 20 %
 * instead of 50 % memory was the same and the GC threads' CPU per query doubled.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50'];

/**
 * The server process's node arguments. A compiled supervisor (`dist/supervise.js`, built by
 * `scripts/build-server.mjs`) runs the compiled server beside it (`dist/start.js`): plain node, no
 * TypeScript loader. From sources it runs `src/cli/start.ts` with tsx's loader (tests, dev, the
 * shell's own supervisor). Paths, not URL objects: jsdom test environments replace `URL`.
 */
function serverCommand(): string[] {
  const self = fileURLToPath(import.meta.url);
  const here = dirname(self);
  if (!self.endsWith('.ts')) return [...SERVER_NODE_FLAGS, join(here, 'start.js')];
  const loader = pathToFileURL(createRequire(join(here, 'x.js')).resolve('tsx')).href;
  return [...SERVER_NODE_FLAGS, '--import', loader, join(here, '..', 'cli', 'start.ts')];
}

function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs the search server (`src/cli/start.ts`) as its own process and
 * restarts it with exponential back-off whenever it exits, on the same port
 * and data folder. Resolves once the first server listens; rejects if that
 * first start fails (bad configuration should not loop silently).
 */
export async function superviseSearchServer(options: SupervisorOptions): Promise<SupervisedSearchServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port && options.port > 0 ? options.port : await freePort(host);
  const log = options.log ?? (() => {});
  const initialBackoff = options.initialBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 10_000;
  const healthyAfter = options.healthyAfterMs ?? 30_000;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${port}`;

  let child: ChildProcess | undefined;
  let currentPid: number | undefined;
  let restarts = 0;
  let backoff = initialBackoff;
  let closing = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let startWaiters: ((pid: number) => void)[] = [];

  const launch = (onFirstExit?: (error: Error) => void): void => {
    const startedAt = Date.now();
    const env = {
      ...SERVER_MALLOC_ENV,
      ...process.env,
      ...options.env,
      SEARCH_HOST: host,
      SEARCH_PORT: String(port),
      SEARCH_DATA_DIR: options.dataDir,
      TYPESENSE_API_KEY: options.adminApiKey,
      TYPESENSE_SEARCH_API_KEY: options.searchApiKey,
      ...(options.allowedOrigins ? { SEARCH_ALLOWED_ORIGINS: options.allowedOrigins.join(',') } : {}),
      // The server stops by itself when this process is gone (see cli/start.ts).
      SEARCH_SUPERVISOR_PID: String(process.pid),
    };
    const process_ = spawn(process.execPath, serverCommand(), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = process_;
    const output = (stream: NodeJS.ReadableStream): void => {
      readline.createInterface({ input: stream }).on('line', (line) => {
        if (line.startsWith('{')) {
          try {
            const status = JSON.parse(line) as { event?: string; pid?: number };
            if (status.event === 'listening') {
              currentPid = status.pid ?? process_.pid;
              onFirstExit = undefined;
              const waiters = startWaiters;
              startWaiters = [];
              for (const resolve of waiters) resolve(currentPid as number);
              return;
            }
          } catch {
            // Not a status line: log it like any other.
          }
        }
        log(line);
      });
    };
    output(process_.stdout!);
    output(process_.stderr!);
    process_.once('exit', (code, signal) => {
      currentPid = undefined;
      if (closing) return;
      if (onFirstExit) {
        onFirstExit(new Error(`the search server exited with ${signal ?? code} before it listened`));
        return;
      }
      if (Date.now() - startedAt >= healthyAfter) backoff = initialBackoff;
      log(`[search-supervisor] search server exited with ${signal ?? `code ${code}`}; restarting in ${backoff} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (closing) return;
        restarts++;
        launch();
      }, backoff);
      backoff = Math.min(backoff * 2, maxBackoff);
    });
  };

  await new Promise<void>((resolve, reject) => {
    startWaiters.push(() => resolve());
    launch(reject);
  });

  return {
    url,
    port,
    pid: () => currentPid,
    restarts: () => restarts,
    nextStart: () => new Promise((resolve) => startWaiters.push(resolve)),
    close: async () => {
      closing = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => running.kill('SIGKILL'), 10_000);
        running.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        running.kill('SIGTERM');
      });
    },
  };
}
