import path from 'node:path';
import { searchNodeUrl, superviseSearchServer } from '@khs/search-engine';
import { searchPageOrigins } from '@khs/stack/registry';
import type { ShellConfig } from '../config.js';
import type { SearchNode } from 'contracts';
import type { BrowserSearchEndpoint } from '../pageConfig.js';

export interface SearchService {
  /** Where the shell (admin key) reaches the search server (the first node of a cluster). */
  serverUrl: string;
  /** Every node the shell reaches (admin key), `serverUrl` first. */
  serverUrls: string[];
  /** Where browsers (search-only key) reach it. */
  browser: BrowserSearchEndpoint;
  /** Whether this process supervises the embedded server (its own process; the shell never searches). */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Uses the configured Typesense cluster (`TYPESENSE_NODES`) or node (`TYPESENSE_HOST`; `npm start`
 * and the e2e harness start the embedded server as its own supervised process and point this at
 * it), or, when run alone, starts the embedded search server as a supervised child process with
 * its data under `DATA_DIR/search`. Either way searches run outside the shell's process.
 */
export async function startSearchService(config: ShellConfig, log: (message: string) => void): Promise<SearchService> {
  const { search } = config;
  if (search.nodes) {
    const browserNodes = search.browserNodes ?? search.nodes;
    const browserNearestNode = search.browserNearestNode ?? search.nearestNode;
    const serverUrls = search.nodes.map(searchNodeUrl);
    const [first] = browserNodes as [SearchNode, ...SearchNode[]];
    return {
      serverUrl: serverUrls[0]!,
      serverUrls,
      browser: {
        host: first.host,
        port: first.port,
        protocol: first.protocol,
        nodes: browserNodes,
        ...(browserNearestNode ? { nearestNode: browserNearestNode } : {}),
      },
      embedded: false,
      close: async () => {},
    };
  }
  if (search.externalHost) {
    const serverUrl = `${search.protocol}://${search.externalHost}:${search.port}`;
    const browserNearestNode = search.browserNearestNode ?? search.nearestNode;
    return {
      serverUrl,
      serverUrls: [serverUrl],
      browser: {
        host: search.browserHost ?? search.externalHost,
        port: search.port,
        protocol: search.protocol,
        ...(browserNearestNode ? { nearestNode: browserNearestNode } : {}),
      },
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
    // Only these pages may read search answers (CORS); `SEARCH_ALLOWED_ORIGINS` overrides the list.
    allowedOrigins:
      process.env.SEARCH_ALLOWED_ORIGINS === undefined
        ? searchPageOrigins({
            shellPort: config.port,
            publicBaseUrl: config.publicBaseUrl,
            remoteOrigins: config.remotes.map((remote) => remote.entry),
          })
        : undefined,
    log,
  });
  return {
    serverUrl: server.url,
    serverUrls: [server.url],
    browser: { host: search.browserHost ?? '127.0.0.1', port: server.port, protocol: 'http' },
    embedded: true,
    close: () => server.close(),
  };
}
