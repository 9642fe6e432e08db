import TypesenseInstantSearchAdapterExport from 'typesense-instantsearch-adapter';
import type { SearchClient } from 'instantsearch.js';
import {
  DEFAULT_HITS_PER_PAGE,
  DEFAULT_SEARCH_INDEX_NAME,
  FACET_SEARCH_CAP,
  HIGHLIGHT_AFFIX_TOKENS,
  SEARCH_CACHE_SECONDS,
  type SearchConfiguration,
} from 'contracts';
import { SearchConfigurationError } from './SearchConfigurationError.js';

// CommonJS interop: bundlers hand over the class, Node's ESM loader (benchmark) the module object.
const TypesenseInstantSearchAdapter =
  (TypesenseInstantSearchAdapterExport as unknown as { default?: typeof TypesenseInstantSearchAdapterExport }).default ??
  TypesenseInstantSearchAdapterExport;

/** Everything an InstantSearch root needs, built from the page's search configuration. */
export interface SearchSetup {
  searchClient: SearchClient;
  /**
   * Client for autocomplete suggestions: same server and cache, but answers carry only the
   * fields a suggestion needs (id, title), so suggestion requests stay small.
   */
  suggestionClient: SearchClient;
  /** Collection searched (default `DEFAULT_SEARCH_INDEX_NAME`). */
  indexName: string;
  /** Hits per page (`limit` of the configuration; default `DEFAULT_HITS_PER_PAGE`). */
  hitsPerPage: number;
}

/**
 * Builds the browser's search client: typesense-instantsearch-adapter talking to the configured
 * Typesense-protocol server with the search-only key. Results are cached on the client for
 * `SEARCH_CACHE_SECONDS`, snippets keep `HIGHLIGHT_AFFIX_TOKENS` tokens each side of a match,
 * facet-value searches ask for at most `FACET_SEARCH_CAP` values, and every search is one
 * `multi_search` request (the adapter batches the widgets' queries).
 * @throws SearchConfigurationError `missing-search-client` when the server part is unusable,
 *   `missing-index-name` when an index name is given but empty.
 */
export function createSearchClient(search: Partial<SearchConfiguration> | null | undefined): SearchSetup {
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

  const serverOptions = {
    apiKey: server.apiKey,
    nodes: [{ host: server.host, port: Number(server.port), protocol: server.protocol ?? 'http', path: '' }],
    cacheSearchResultsForSeconds: SEARCH_CACHE_SECONDS,
  };
  const searchFields = queryBy.split(',').map((field) => field.trim());
  const adapter = new TypesenseInstantSearchAdapter({
    server: serverOptions,
    additionalSearchParameters: {
      query_by: queryBy,
      ...(search?.sortBy ? { sort_by: search.sortBy } : {}),
      highlight_affix_num_tokens: HIGHLIGHT_AFFIX_TOKENS,
      // Whole highlighted values for the short fields; long text (content) only as a snippet.
      highlight_full_fields: searchFields.filter((field) => field !== 'content').join(','),
      // The adapter reads the `highlight` object; the legacy `highlights` array only doubles the payload.
      enable_highlight_v1: false,
    },
  });
  const client = adapter.searchClient as unknown as { searchForFacetValues: (requests: FacetValuesRequest[]) => Promise<unknown> };
  const searchForFacetValues = client.searchForFacetValues.bind(client);
  // The adapter ignores InstantSearch's `maxFacetHits`; `maxValuesPerFacet` becomes Typesense's
  // `max_facet_values`, which is what caps a facet-value search.
  client.searchForFacetValues = (requests: FacetValuesRequest[]) =>
    searchForFacetValues(
      requests.map((request) => ({ ...request, params: { ...request.params, maxValuesPerFacet: FACET_SEARCH_CAP } })),
    );

  const suggestionAdapter = new TypesenseInstantSearchAdapter({
    server: serverOptions,
    additionalSearchParameters: {
      query_by: queryBy,
      include_fields: 'id,title',
      highlight_fields: 'title',
      highlight_full_fields: 'title',
      enable_highlight_v1: false,
    },
  });

  const limit = Number(search?.limit);
  return {
    searchClient: client as unknown as SearchClient,
    suggestionClient: suggestionAdapter.searchClient as unknown as SearchClient,
    indexName,
    hitsPerPage: Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_HITS_PER_PAGE,
  };
}

interface FacetValuesRequest {
  indexName: string;
  params: Record<string, unknown>;
}
