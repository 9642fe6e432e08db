import path from 'node:path';
import { indexArticles, startSearchServer } from '@khs/search-engine';
import { listArticles } from '@khs/content';
import type { ShellConfig } from '../config.js';
import type { BrowserSearchEndpoint } from '../pageConfig.js';

export interface SearchService {
  /** Where the shell (admin key) reaches the search server. */
  serverUrl: string;
  /** Where browsers (search-only key) reach it. */
  browser: BrowserSearchEndpoint;
  /** Whether this process runs the embedded server. */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Uses the configured Typesense (`TYPESENSE_HOST`) or starts the embedded search server with
 * its data under `DATA_DIR/search`.
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
  const server = await startSearchServer({
    host: '127.0.0.1',
    port: search.port,
    dataDir: path.join(config.dataDir, 'search'),
    adminApiKey: search.adminApiKey,
    searchOnlyApiKeys: [search.searchApiKey],
    log,
  });
  return {
    serverUrl: server.url,
    browser: { host: search.browserHost ?? '127.0.0.1', port: server.port, protocol: 'http' },
    embedded: true,
    close: () => server.close(),
  };
}

/**
 * Indexes the content store when the articles collection does not exist yet (first start), so
 * restarts are fast and a real Typesense is filled by the same code.
 */
export async function ensureArticlesIndexed(
  service: SearchService,
  config: ShellConfig,
  log: (message: string) => void,
): Promise<void> {
  const { indexName, adminApiKey } = config.search;
  const result = await indexArticles({
    url: service.serverUrl,
    apiKey: adminApiKey,
    collectionName: indexName,
    articles: listArticles(),
    skipIfExists: true,
  });
  if (result.imported === 0 && result.failed === 0) return;
  log(`indexed ${result.imported} articles into "${indexName}" (${result.failed} failed)`);
}
