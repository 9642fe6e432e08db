import { DEFAULT_HITS_PER_PAGE, DEFAULT_SEARCH_INDEX_NAME, type SearchConfiguration } from 'contracts';
import { SearchConfigurationError } from './SearchConfigurationError.js';

/** The page's search configuration, checked: what the search clients are built from. */
export interface SearchServerSettings {
  apiKey: string;
  host: string;
  port: number;
  protocol: string;
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
 * @throws SearchConfigurationError `missing-search-client` when the server part or `queryBy` is
 *   unusable, `missing-index-name` when an index name is given but empty.
 */
export function readSearchServerSettings(search: Partial<SearchConfiguration> | null | undefined): SearchServerSettings {
  const server = search?.server;
  if (!server || typeof server.host !== 'string' || server.host === '' || typeof server.apiKey !== 'string' || !Number.isFinite(Number(server.port))) {
    throw new SearchConfigurationError('missing-search-client', 'The search needs a search client: server host, port and apiKey are required.');
  }
  const indexName = server.indexName === undefined ? DEFAULT_SEARCH_INDEX_NAME : server.indexName;
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
    host: server.host,
    port: Number(server.port),
    protocol: server.protocol ?? 'http',
    indexName,
    queryBy,
    ...(search?.sortBy ? { sortBy: search.sortBy } : {}),
    hitsPerPage: Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_HITS_PER_PAGE,
  };
}
