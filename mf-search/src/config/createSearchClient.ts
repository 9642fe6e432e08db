import TypesenseInstantSearchAdapterExport from 'typesense-instantsearch-adapter';
import type { SearchClient } from 'instantsearch.js';
import { FACET_SEARCH_CAP, HIGHLIGHT_AFFIX_TOKENS, SEARCH_CACHE_SECONDS, type SearchConfiguration } from 'contracts';
import { answerRefusedSearches, type InstantSearchRequestLike } from './refusedSearches.js';
import { withCompactListHits } from './compactListHits.js';
import { withSnippetOnlyFields, type TypesenseMultiSearchResponse } from './snippetOnlyFields.js';
import { readSearchServerSettings, type SearchServerSettings } from './searchServerSettings.js';
import { canonicalJson, RECORDED_SEARCH_KEY, type EarlyAnswers, type TypesenseSearch } from './earlySearch.js';
import { createIndexVersionReader, createVersionedAnswerCache, INDEX_VERSION_MAX_AGE_MS, indexVersionSearch, type IndexVersionReader, versionOfResult } from './indexVersion.js';

/** Answers one client keeps at most (the `typesense` client's own cache capacity). */
const ANSWER_CACHE_ENTRIES = 100;

// CommonJS interop: bundlers hand over the class, Node's ESM loader (benchmark) the module object.
const TypesenseInstantSearchAdapter =
  (TypesenseInstantSearchAdapterExport as unknown as { default?: typeof TypesenseInstantSearchAdapterExport }).default ??
  TypesenseInstantSearchAdapterExport;

/**
 * Long text fields the list never shows whole: left out of the answer's documents
 * (`exclude_fields`); only their snippet (the `highlight` object) travels.
 */
export const SNIPPET_ONLY_FIELDS: readonly string[] = ['content'];

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
  /** The index version both clients key their cached answers on (`indexVersion.ts`). */
  indexVersion: IndexVersionReader;
}

/**
 * Builds the browser's search client: typesense-instantsearch-adapter talking to the configured
 * Typesense-protocol server with the search-only key. Results are cached on the client for
 * `SEARCH_CACHE_SECONDS` while the index version stays the same (read at most once a second,
 * `indexVersion.ts`: a change of the index is in every answer within about a second), snippets keep `HIGHLIGHT_AFFIX_TOKENS` tokens each side of a match,
 * facet-value searches ask for at most `FACET_SEARCH_CAP` values, and every search is one
 * `multi_search` request (the adapter batches the widgets' queries). Answers carry no `content`
 * (about 45 KB per answer otherwise), only its snippet, which still reaches `_snippetResult.content`;
 * each hit keeps only what the list reads (`withCompactListHits`).
 * @throws SearchConfigurationError `missing-search-client` when the server part is unusable,
 *   `missing-index-name` when an index name is given but empty.
 */
export function createSearchClient(search: Partial<SearchConfiguration> | null | undefined, transport: SearchTransport = {}): SearchSetup {
  const settings = readSearchServerSettings(search);
  const searchFields = settings.queryBy.split(',').map((field) => field.trim());
  const adapter = new TypesenseInstantSearchAdapter({
    server: serverOptions(settings, transport),
    additionalSearchParameters: {
      query_by: settings.queryBy,
      ...(settings.sortBy ? { sort_by: settings.sortBy } : {}),
      highlight_affix_num_tokens: HIGHLIGHT_AFFIX_TOKENS,
      // Whole highlighted values for the short fields (headline, title, intro); long text only as a snippet.
      highlight_full_fields: searchFields.filter((field) => !SNIPPET_ONLY_FIELDS.includes(field)).join(','),
      // The teaser shows a snippet of the long text, never the text itself.
      exclude_fields: SNIPPET_ONLY_FIELDS.join(','),
      // The adapter reads the `highlight` object; the legacy `highlights` array only doubles the payload.
      enable_highlight_v1: false,
    },
  });
  hookRequestStep(adapter, (response) => withSnippetOnlyFields(response, SNIPPET_ONLY_FIELDS));
  const indexVersion = transport.indexVersion ?? indexVersionReaderOf(adapter, settings.indexName);
  hookMultiSearch(adapter, transport, indexVersion);
  const client = withCompactListHits(adapter.searchClient as unknown as SearchClient) as unknown as {
    searchForFacetValues: (requests: FacetValuesRequest[]) => Promise<unknown>;
  };
  const searchForFacetValues = client.searchForFacetValues.bind(client);
  // The adapter ignores InstantSearch's `maxFacetHits`; `maxValuesPerFacet` becomes Typesense's
  // `max_facet_values`, which is what caps a facet-value search.
  client.searchForFacetValues = (requests: FacetValuesRequest[]) =>
    searchForFacetValues(
      requests.map((request) => ({ ...request, params: { ...request.params, maxValuesPerFacet: FACET_SEARCH_CAP } })),
    );

  return {
    searchClient: client as unknown as SearchClient,
    suggestionClient: createSuggestionClient(settings, transport, indexVersion),
    indexName: settings.indexName,
    hitsPerPage: settings.hitsPerPage,
    indexVersion,
  };
}

/**
 * The client for autocomplete suggestions alone (what the header search needs): answers carry
 * only the fields a suggestion needs (id, title), so suggestion requests stay small.
 */
export function createSuggestionClient(settings: SearchServerSettings, transport: SearchTransport = {}, indexVersion?: IndexVersionReader): SearchClient {
  const adapter = new TypesenseInstantSearchAdapter({
    server: serverOptions(settings, transport),
    additionalSearchParameters: {
      query_by: settings.queryBy,
      include_fields: 'id,title',
      highlight_fields: 'title',
      highlight_full_fields: 'title',
      enable_highlight_v1: false,
    },
  });
  hookRequestStep(adapter, (response) => response);
  hookMultiSearch(adapter, {}, indexVersion ?? transport.indexVersion ?? indexVersionReaderOf(adapter, settings.indexName));
  return adapter.searchClient as unknown as SearchClient;
}

/**
 * How the server build talks to the search server: its own keep-alive agents, one pair per loaded
 * version, destroyed by `dispose()` (Node's shared global agent would let an old version's socket
 * listeners pin it in memory; toolchain-notes, server-side federation §5). Browsers pass nothing.
 */
export interface SearchTransport {
  httpAgent?: import('node:http').Agent;
  httpsAgent?: import('node:https').Agent;
  /** Request deadline in seconds. Default: the client's. */
  connectionTimeoutSeconds?: number;
  /**
   * Server: each answer carries the Typesense search it answers in its `metadata`
   * (`RECORDED_SEARCH_KEY`), so the bound list can send the same searches for a typed query
   * (`earlySearch.ts`). Default `false`.
   */
  recordSearches?: boolean;
  /** Browser: answers the bound list fetched before the full island; a list search identical to one takes it. Default none. */
  earlyAnswers?: EarlyAnswers;
  /**
   * Where the clients read the index version their cached answers are keyed on. Default: the
   * version collection, read through this client's own nodes (`indexVersion.ts`).
   */
  indexVersion?: IndexVersionReader;
}

/**
 * How the `typesense` client moves between the nodes of a cluster, in the browser and on the
 * server alike. A request that fails on a node (network error, timeout, HTTP 5xx; never a 4xx)
 * marks that node unhealthy and is retried on the next one after `retryIntervalSeconds`; an
 * unhealthy node is skipped until `healthcheckIntervalSeconds` have passed, then tried again.
 * Requests start at the nearest node when there is one, else rotate over the nodes (their order
 * shuffled once per client, so browsers spread over the cluster).
 */
export const SEARCH_NODE_FAILOVER = {
  /** Pause before the next node is tried. */
  retryIntervalSeconds: 0.1,
  /** How long a failed node stays out of the rotation: a restarted node is back within this. */
  healthcheckIntervalSeconds: 15,
} as const;

/**
 * Retries of one request: one per node (the nearest node counted), the `typesense` client's own
 * default made explicit. One node gets one retry (a blip); in a cluster every node gets its turn
 * before a request fails. (The client reads 0 as "use 3", so there is always at least one.)
 */
export function searchRetriesFor(settings: Pick<SearchServerSettings, 'nodes' | 'nearestNode'>): number {
  return settings.nodes.length + (settings.nearestNode ? 1 : 0);
}

function serverOptions(settings: SearchServerSettings, { recordSearches: _record, earlyAnswers: _early, indexVersion: _version, ...transport }: SearchTransport = {}) {
  return {
    apiKey: settings.apiKey,
    nodes: settings.nodes.map((node) => ({ ...node })),
    ...(settings.nearestNode ? { nearestNode: { ...settings.nearestNode } } : {}),
    numRetries: searchRetriesFor(settings),
    ...SEARCH_NODE_FAILOVER,
    // The client's own cache knows no index version: answers are cached by `hookMultiSearch` instead.
    cacheSearchResultsForSeconds: 0,
    ...transport,
  };
}

/** The typesense client's `multi_search` call, below the adapter. */
interface AdapterTypesenseClient {
  typesenseClient: {
    multiSearch: {
      perform(body: { searches: TypesenseSearch[] }, commonParams?: Record<string, unknown>, ...rest: unknown[]): Promise<TypesenseMultiSearchResponse>;
    };
  };
}

/** A reader of the index version through the adapter's own `typesense` client (same nodes, same failover). */
function indexVersionReaderOf(adapter: object, indexName: string): IndexVersionReader {
  const multiSearch = (adapter as AdapterTypesenseClient).typesenseClient.multiSearch;
  const perform = multiSearch.perform.bind(multiSearch);
  return createIndexVersionReader({
    maxAgeMs: INDEX_VERSION_MAX_AGE_MS,
    read: async () => versionOfResult((await perform({ searches: [indexVersionSearch(indexName)] }, {})).results[0]),
  });
}

/**
 * Where a client meets `multi_search` (the body the adapter built): answers are cached for
 * `SEARCH_CACHE_SECONDS` under the index version read before the request (the `typesense`
 * client's own cache could not be told that the index changed); the list's client also records
 * each search in its answer (server), or answers from the bound list's early answer for exactly
 * these searches (browser). Hooks the pinned adapter's `typesenseClient`, as `hookRequestStep`.
 */
function hookMultiSearch(adapter: object, { recordSearches = false, earlyAnswers }: SearchTransport, indexVersion: IndexVersionReader): void {
  const multiSearch = (adapter as AdapterTypesenseClient).typesenseClient.multiSearch;
  const perform = multiSearch.perform.bind(multiSearch);
  const cached = createVersionedAnswerCache<TypesenseMultiSearchResponse>(indexVersion, { ttlMs: SEARCH_CACHE_SECONDS * 1000, maxEntries: ANSWER_CACHE_ENTRIES });
  multiSearch.perform = async (body, commonParams, ...rest) => {
    const plain = !commonParams || Object.keys(commonParams).length === 0;
    const early = earlyAnswers && plain ? await earlyAnswers.take(body.searches) : undefined;
    const response = early ?? (await cached(canonicalJson({ body, commonParams: commonParams ?? {} }), () => perform(body, commonParams, ...rest)));
    if (!recordSearches) return response;
    return {
      ...response,
      results: response.results.map((result, index) => {
        const metadata = result.metadata && typeof result.metadata === 'object' ? result.metadata : {};
        return { ...result, metadata: { ...metadata, [RECORDED_SEARCH_KEY]: body.searches[index] } };
      }),
    };
  };
}

/** The adapter's step that sends the request and hands the raw Typesense answer to its reader. */
interface AdapterRequestStep {
  _adaptAndPerformTypesenseRequest(requests: InstantSearchRequestLike[]): Promise<TypesenseMultiSearchResponse>;
}

/**
 * Completes every raw answer before the adapter reads it. First `answerRefusedSearches`: a search
 * the server refused because of the visitor's input (a 4xx such as too many words) becomes an
 * empty answer the list explains, instead of the adapter's error (which it logs with its stack);
 * any other failure rejects with a one-line `SearchFailedError`. Then `complete`: for the list,
 * `withSnippetOnlyFields` (the adapter builds `_snippetResult` from the hit's document keys only,
 * so an excluded field's snippet would be dropped although the server sent it). Hooks an internal
 * step of the pinned adapter version (typesense-instantsearch-adapter 3.0.2); the embedded-server
 * tests of the content snippet and of refused searches fail if that step changes.
 */
function hookRequestStep(adapter: object, complete: (response: TypesenseMultiSearchResponse) => TypesenseMultiSearchResponse): void {
  const step = adapter as AdapterRequestStep;
  const perform = step._adaptAndPerformTypesenseRequest.bind(adapter);
  step._adaptAndPerformTypesenseRequest = async (requests) => complete(await answerRefusedSearches(requests, () => perform(requests)));
}

interface FacetValuesRequest {
  indexName: string;
  params: Record<string, unknown>;
}
