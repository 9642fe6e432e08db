import { createRequire } from 'node:module';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { supervise } from '@khs/stack/supervisor';
import { SERVER_HEALTH_PATH, SERVER_MALLOC_ENV, SERVER_NODE_FLAGS, SERVER_STOP_TIMEOUT_MS } from '../../server-process.mjs';

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

// How the server process is run (node flags, malloc settings, health path) lives in one plain
// module the site's stack reads too.
export { SERVER_MALLOC_ENV, SERVER_NODE_FLAGS } from '../../server-process.mjs';

/**
 * The server process's node arguments. A compiled supervisor (`dist/supervise.js`, built by
 * `scripts/build-server.mjs`) runs the compiled server beside it (`dist/start.js`): plain node, no
 * TypeScript loader. From sources it runs `src/cli/start.ts` with tsx's loader (tests, dev, the
 * shell's own supervisor). Paths, not URL objects: jsdom test environments replace `URL`.
 */
function serverCommand(): { nodeArgs: string[]; args: string[] } {
  const self = fileURLToPath(import.meta.url);
  const here = dirname(self);
  if (!self.endsWith('.ts')) return { nodeArgs: [...SERVER_NODE_FLAGS], args: [join(here, 'start.js')] };
  const loader = pathToFileURL(createRequire(join(here, 'x.js')).resolve('tsx')).href;
  return { nodeArgs: [...SERVER_NODE_FLAGS, '--import', loader], args: [join(here, '..', 'cli', 'start.ts')] };
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
 * Runs the search server (`src/cli/start.ts`) as its own process, supervised by the site's one
 * supervisor (`@khs/stack/supervisor`): restarted with exponential back-off whenever it exits, and
 * replaced when its `/health` stops answering (a hung server), on the same port and data folder; it
 * stops by itself when this process is gone. Resolves once the first server listens; rejects if
 * that first start fails (bad configuration should not loop silently).
 */
export async function superviseSearchServer(options: SupervisorOptions): Promise<SupervisedSearchServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port && options.port > 0 ? options.port : await freePort(host);
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${port}`;
  const supervised = await supervise({
    name: 'search server',
    ...serverCommand(),
    env: {
      ...SERVER_MALLOC_ENV,
      ...process.env,
      ...options.env,
      SEARCH_HOST: host,
      SEARCH_PORT: String(port),
      SEARCH_DATA_DIR: options.dataDir,
      TYPESENSE_API_KEY: options.adminApiKey,
      TYPESENSE_SEARCH_API_KEY: options.searchApiKey,
      ...(options.allowedOrigins ? { SEARCH_ALLOWED_ORIGINS: options.allowedOrigins.join(',') } : {}),
    },
    healthUrl: `${url}${SERVER_HEALTH_PATH}`,
    ...(options.log ? { log: options.log } : {}),
    timings: {
      stopTimeoutMs: SERVER_STOP_TIMEOUT_MS,
      ...(options.initialBackoffMs !== undefined ? { initialBackoffMs: options.initialBackoffMs } : {}),
      ...(options.maxBackoffMs !== undefined ? { maxBackoffMs: options.maxBackoffMs } : {}),
      ...(options.healthyAfterMs !== undefined ? { healthyAfterMs: options.healthyAfterMs } : {}),
    },
  });
  return {
    url,
    port,
    pid: () => supervised.pid(),
    restarts: () => supervised.restarts(),
    nextStart: async () => (await supervised.nextStart()).pid,
    close: () => supervised.close(),
  };
}
