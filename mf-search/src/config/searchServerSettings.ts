import { DEFAULT_HITS_PER_PAGE, type SearchConfiguration, type SearchNode } from 'contracts';
import { configuredSearchIndexName } from './searchIndexName.js';
import { SearchConfigurationError } from './SearchConfigurationError.js';

/** One checked search node: what the `typesense` client's `nodes`/`nearestNode` take. */
export interface SearchNodeSettings {
  host: string;
  port: number;
  protocol: 'http' | 'https';
  /** Path prefix in front of the API (default `''`). */
  path: string;
}

/** The page's search configuration, checked: what the search clients are built from. */
export interface SearchServerSettings {
  apiKey: string;
  /**
   * Every node searched (at least one): `server.nodes` when the page config lists a cluster,
   * else the one node `server.host`/`port`/`protocol`.
   */
  nodes: SearchNodeSettings[];
  /** A load-balanced endpoint tried before `nodes` (`server.nearestNode`), when configured. */
  nearestNode?: SearchNodeSettings;
  /** Collection searched (default `DEFAULT_SEARCH_INDEX_NAME`). */
  indexName: string;
  /** Comma-separated searched fields, as configured. */
  queryBy: string;
  /** Sort expression, when configured. */
  sortBy?: string;
  /** Hits per page (`limit` of the configuration; default `DEFAULT_HITS_PER_PAGE`). */
  hitsPerPage: number;
}

/**
 * Checks the page's search configuration without loading any search client code, so an island
 * can refuse a broken configuration (and keep its fallback) before it renders, and load the
 * client itself later.
 * @throws SearchConfigurationError `missing-search-client` when the server part (a node included)
 *   or `queryBy` is unusable, `missing-index-name` when an index name is given but empty.
 */
export function readSearchServerSettings(search: Partial<SearchConfiguration> | null | undefined): SearchServerSettings {
  const server = search?.server;
  if (!server || typeof server.host !== 'string' || server.host === '' || typeof server.apiKey !== 'string' || !Number.isFinite(Number(server.port))) {
    throw new SearchConfigurationError('missing-search-client', 'The search needs a search client: server host, port and apiKey are required.');
  }
  const nodes =
    server.nodes === undefined
      ? [readSearchNode({ host: server.host, port: server.port, protocol: server.protocol ?? 'http' }, 'server')]
      : readSearchNodes(server.nodes);
  const nearestNode = server.nearestNode === undefined ? undefined : readSearchNode(server.nearestNode, 'server.nearestNode');
  const indexName = configuredSearchIndexName(search);
  if (typeof indexName !== 'string' || indexName.trim() === '') {
    throw new SearchConfigurationError('missing-index-name', 'The search needs an index name.');
  }
  const queryBy = typeof search?.queryBy === 'string' ? search.queryBy : '';
  if (queryBy === '') {
    throw new SearchConfigurationError('missing-search-client', 'The search client needs "queryBy".');
  }
  const limit = Number(search?.limit);
  return {
    apiKey: server.apiKey,
    nodes,
    ...(nearestNode ? { nearestNode } : {}),
    indexName,
    queryBy,
    ...(search?.sortBy ? { sortBy: search.sortBy } : {}),
    hitsPerPage: Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_HITS_PER_PAGE,
  };
}

function readSearchNodes(nodes: unknown): SearchNodeSettings[] {
  if (!Array.isArray(nodes) || nodes.length === 0) {
    throw new SearchConfigurationError('missing-search-client', 'The search client\'s "server.nodes" must list at least one node when given.');
  }
  return nodes.map((node, index) => readSearchNode(node, `server.nodes[${index}]`));
}

/** One node, checked; `where` names it in the error (`server.nodes[1]`). */
function readSearchNode(node: unknown, where: string): SearchNodeSettings {
  const candidate = (typeof node === 'object' && node !== null ? node : {}) as Partial<Record<keyof SearchNode, unknown>>;
  const problems: string[] = [];
  if (typeof candidate.host !== 'string' || candidate.host.trim() === '') problems.push('a host');
  const port = Number(candidate.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push('a port from 1 to 65535');
  const protocol = candidate.protocol ?? 'http';
  if (protocol !== 'http' && protocol !== 'https') problems.push('protocol "http" or "https"');
  const path = candidate.path ?? '';
  if (typeof path !== 'string' || (path !== '' && !path.startsWith('/'))) problems.push('a path that is empty or starts with "/"');
  if (problems.length > 0) {
    throw new SearchConfigurationError('missing-search-client', `The search node "${where}" needs ${problems.join(', ')} (got ${JSON.stringify(node)}).`);
  }
  return { host: (candidate.host as string).trim(), port, protocol: protocol as 'http' | 'https', path: path as string };
}
