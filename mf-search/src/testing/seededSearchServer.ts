import { listArticles } from '@khs/content';
import { startSearchServer, type SearchServerStats } from '@khs/search-engine';
import { indexArticles, type IndexableArticle } from '../../server/src/indexing/indexArticles.js';
import { DEFAULT_SEARCH_INDEX_NAME, examplePageConfig, type PageConfig, type SearchNode } from 'contracts';

/** A running embedded search server holding the seeded articles (plus any extra ones). */
export interface SeededSearchServer {
  url: string;
  port: number;
  /** A page config whose search points at this server with its search-only key. */
  pageConfig(): PageConfig;
  /** This server as one node of a search cluster (`server.nodes`). */
  node(): SearchNode;
  /** Its counters (`searches`: search requests it answered). */
  stats(): SearchServerStats;
  close(): Promise<void>;
}

/** The admin key of the seeded servers (tests that write to the index, e.g. a document's popularity). */
export const SEEDED_ADMIN_KEY = 'mf-search-test-admin';
const ADMIN_KEY = SEEDED_ADMIN_KEY;
const SEARCH_KEY = 'mf-search-test-search';

/**
 * Starts the embedded Typesense-protocol server on a free port and indexes the seeded content
 * (tests and the benchmark search the real engine, never a stub).
 * @param extraArticles  Added to the seeded ones. Default none.
 * @param articles  Replaces the seeded articles (benchmark corpora). Default the seeded ones.
 * @param allowedOrigins  Pages that may search it from a browser (the server answers CORS only for
 *   them). Default: the test document's origin under jsdom, else none.
 * @param workers  Search workers of the server. Default the server's (one per core).
 * @param limits  The server's request limits (e.g. a short `maxQueryLength`, so a test can make it
 *   refuse a visitor's query as another server might). Default the server's.
 */
export async function startSeededSearchServer(
  options: {
    extraArticles?: IndexableArticle[];
    articles?: Iterable<IndexableArticle>;
    allowedOrigins?: string[];
    workers?: number;
    limits?: Parameters<typeof startSearchServer>[0]['limits'];
  } = {},
): Promise<SeededSearchServer> {
  const documentOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const allowedOrigins = options.allowedOrigins ?? (documentOrigin?.startsWith('http') ? [documentOrigin] : []);
  const server = await startSearchServer({ port: 0, adminApiKey: ADMIN_KEY, searchOnlyApiKeys: [SEARCH_KEY], allowedOrigins, ...(options.workers ? { workers: options.workers } : {}), ...(options.limits ? { limits: options.limits } : {}) });
  const articles = options.articles ?? [...listArticles(), ...(options.extraArticles ?? [])];
  await indexArticles({ url: server.url, apiKey: ADMIN_KEY, collectionName: DEFAULT_SEARCH_INDEX_NAME, articles });
  return {
    url: server.url,
    port: server.port,
    pageConfig() {
      const config = examplePageConfig();
      config.search.server = { apiKey: SEARCH_KEY, host: '127.0.0.1', port: server.port, protocol: 'http', indexName: DEFAULT_SEARCH_INDEX_NAME };
      return config;
    },
    node: () => ({ host: '127.0.0.1', port: server.port, protocol: 'http' }),
    stats: () => server.stats(),
    close: () => server.close(),
  };
}
