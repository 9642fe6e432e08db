import path from 'node:path';
import { superviseSearchServer } from '@khs/search-engine';
import type { ShellConfig } from '../config.js';
import type { BrowserSearchEndpoint } from '../pageConfig.js';

export interface SearchService {
  /** Where the shell (admin key) reaches the search server. */
  serverUrl: string;
  /** Where browsers (search-only key) reach it. */
  browser: BrowserSearchEndpoint;
  /** Whether this process supervises the embedded server (its own process; the shell never searches). */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Uses the configured Typesense (`TYPESENSE_HOST`; `npm start` and the e2e harness start the
 * embedded server as its own supervised process and point this at it), or, when run alone,
 * starts the embedded search server as a supervised child process with its data under
 * `DATA_DIR/search`. Either way searches run outside the shell's process.
 */
export async function startSearchService(config: ShellConfig, log: (message: string) => void): Promise<SearchService> {
  const { search } = config;
  if (search.externalHost) {
    return {
      serverUrl: `${search.protocol}://${search.externalHost}:${search.port}`,
      browser: { host: search.browserHost ?? search.externalHost, port: search.port, protocol: search.protocol },
      embedded: false,
      close: async () => {},
    };
  }
  const server = await superviseSearchServer({
    host: '127.0.0.1',
    port: search.port,
    dataDir: path.join(config.dataDir, 'search'),
    adminApiKey: search.adminApiKey,
    searchApiKey: search.searchApiKey,
    log,
  });
  return {
    serverUrl: server.url,
    browser: { host: search.browserHost ?? '127.0.0.1', port: server.port, protocol: 'http' },
    embedded: true,
    close: () => server.close(),
  };
}
