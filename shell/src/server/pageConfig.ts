import { DEFAULT_CALL_URLS, DEFAULT_SEARCH_SETTINGS, examplePageConfig, searchSortBy, type PageConfig, type SearchNode } from 'contracts';
import type { ShellConfig } from './config.js';
import { searchNodeOrigin } from '@khs/search-nodes';

/** Where browsers reach the search server: one node (`host`/`port`/`protocol`), or a cluster. */
export interface BrowserSearchEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  /** Every node of a cluster, the first one repeated in `host`/`port`/`protocol`. Default: that one node. */
  nodes?: SearchNode[];
  /** A load-balanced endpoint tried before the nodes. Default none. */
  nearestNode?: SearchNode;
}

/** Every origin browsers may send searches to (the CSP's `connect-src`): each node and the nearest node. */
export function browserSearchOrigins(search: BrowserSearchEndpoint): string[] {
  const nodes = [...(search.nodes ?? [{ host: search.host, port: search.port, protocol: search.protocol }]), ...(search.nearestNode ? [search.nearestNode] : [])];
  return [...new Set(nodes.map(searchNodeOrigin))];
}

/** English texts of the site (the only locale so far). */
const I18N: PageConfig['i18n'] = examplePageConfig().i18n;

/** The config every page embeds for its islands. Built once per process: it has no secrets. */
export function buildPageConfig(config: ShellConfig, search: BrowserSearchEndpoint): PageConfig {
  return {
    siteName: config.siteName,
    remotes: config.remotes,
    remoteTimeoutMs: config.remoteTimeoutMs,
    search: {
      ...DEFAULT_SEARCH_SETTINGS,
      // The browser's and the server render's searches both take their sort from here.
      sortBy: searchSortBy(config.search.popularityRanking),
      server: {
        apiKey: config.search.searchApiKey,
        host: search.host,
        port: search.port,
        protocol: search.protocol,
        indexName: config.search.indexName,
        ...(search.nodes ? { nodes: search.nodes } : {}),
        ...(search.nearestNode ? { nearestNode: search.nearestNode } : {}),
      },
    },
    calls: { ...DEFAULT_CALL_URLS },
    i18n: I18N,
  };
}
