/**
 * Standalone embedded search server. Env: SEARCH_HOST (127.0.0.1),
 * SEARCH_PORT (8108), SEARCH_DATA_DIR (.data/search), TYPESENSE_API_KEY
 * (admin key), TYPESENSE_SEARCH_API_KEY (search-only key).
 */
import { startSearchServer } from '../http/server.js';
import { DEV_ADMIN_KEY, DEV_SEARCH_KEY } from './env-config.js';

const server = await startSearchServer({
  host: process.env.SEARCH_HOST ?? '127.0.0.1',
  port: Number(process.env.SEARCH_PORT ?? 8108),
  dataDir: process.env.SEARCH_DATA_DIR ?? '.data/search',
  adminApiKey: process.env.TYPESENSE_API_KEY ?? DEV_ADMIN_KEY,
  searchOnlyApiKeys: [process.env.TYPESENSE_SEARCH_API_KEY ?? DEV_SEARCH_KEY],
  log: (msg) => console.log(`[search] ${msg}`),
});

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  server.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('[search] error while closing', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
