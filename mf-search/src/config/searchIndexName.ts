import { DEFAULT_SEARCH_INDEX_NAME, type SearchConfiguration } from 'contracts';

/**
 * The collection the page's search uses as configured (`search.server.indexName`, default
 * `DEFAULT_SEARCH_INDEX_NAME`), unchecked: `readSearchServerSettings` refuses a bad one. Its own
 * module so that code needing only the name (every page's conversion listener) loads nothing more.
 */
export function configuredSearchIndexName(search: Partial<SearchConfiguration> | null | undefined): unknown {
  return search?.server?.indexName === undefined ? DEFAULT_SEARCH_INDEX_NAME : search.server.indexName;
}
