/**
 * Runs the search server as its own supervised process (restarted with
 * back-off on exit, same port and data folder). Environment as `start.ts`;
 * SEARCH_PORT=0 picks a free port once; SEARCH_RESTART_BACKOFF_MS sets the
 * first restart delay (default 250 ms, doubling per crash in a row up to 10 s). Prints a JSON line
 * `{"event":"listening","url","pid","restarts"}` on every (re)start.
 */
import { childLineRelay, startProcessLogs } from '@khs/observability';
import { superviseSearchServer } from '../supervisor/supervise-search-server.js';
import { DEV_ADMIN_KEY, DEV_SEARCH_KEY } from './env-config.js';

// Its own lines as JSON lines of `search-supervisor`; the search server's, as they come.
const logger = startProcessLogs('search-supervisor');
const supervised = await superviseSearchServer({
  host: process.env.SEARCH_HOST ?? '127.0.0.1',
  port: Number(process.env.SEARCH_PORT ?? 8108),
  dataDir: process.env.SEARCH_DATA_DIR ?? '.data/search',
  adminApiKey: process.env.TYPESENSE_API_KEY ?? DEV_ADMIN_KEY,
  searchApiKey: process.env.TYPESENSE_SEARCH_API_KEY ?? DEV_SEARCH_KEY,
  log: childLineRelay(logger),
  initialBackoffMs: process.env.SEARCH_RESTART_BACKOFF_MS ? Number(process.env.SEARCH_RESTART_BACKOFF_MS) : undefined,
});
const announce = (pid: number): void => {
  console.log(JSON.stringify({ event: 'listening', url: supervised.url, port: supervised.port, pid, restarts: supervised.restarts() }));
  void supervised.nextStart().then(announce);
};
announce(supervised.pid() as number);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void supervised.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
