import { renderToString } from 'react-dom/server';
import { getServerState, InstantSearchSSRProvider } from 'react-instantsearch';
import { ISLAND_API_VERSION, type IslandRender, type SearchConfiguration } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { createSuggestionSource } from '../autocomplete/createSuggestionSource.js';
import { SearchList } from '../components/SearchList.js';
import { createSearchClient, type SearchSetup } from '../config/createSearchClient.js';
import { createSeededHitsCache, searchWithEarlierPages } from './earlierPagesSearch.js';
import type { SearchListServerState } from './searchListServerState.js';
import { createServerRenderCache } from './serverRenderCache.js';
import { disposeServerSearchTransport, serverSearchTransport } from './serverSearchTransport.js';
import type { SearchListIslandProps } from './SearchList.js';
import { serverIslandContext } from './serverIslandContext.js';
import { searchListOptions } from './searchListOptions.js';
import { listAddress } from '../routing/listAddress.js';

export const islandApiVersion = ISLAND_API_VERSION;
export const dispose = disposeServerSearchTransport;

/** Pages a server render fills at most (`?page=40` renders 1…5 and offers more): bounded work per request. */
export const MAX_SERVER_PAGES = 5;

/** Identical list renders within 10 s share one run; at most 4 distinct ones run at once. */
const renders = createServerRenderCache({ ttlMs: 10_000, maxEntries: 200, maxInFlight: 4 });

/** One search setup per search configuration (the page config is built once per shell process). */
const setups = new WeakMap<object, SearchSetup>();
function setupFor(search: SearchConfiguration): SearchSetup {
  let setup = setups.get(search);
  if (!setup) {
    setup = createSearchClient(search, serverSearchTransport);
    setups.set(search, setup);
  }
  return setup;
}

/** The address's page (1-based), at most `MAX_SERVER_PAGES`. */
function requestedPage(address: URL): number {
  const page = Number(address.searchParams.get('page'));
  return Number.isInteger(page) && page > 1 ? Math.min(page, MAX_SERVER_PAGES) : 1;
}

function withPage(address: URL, page: number): string {
  const copy = new URL(address);
  if (page > 1) copy.searchParams.set('page', String(page));
  else copy.searchParams.delete('page');
  return copy.href;
}

/**
 * Server render of the search list for the address's query, refinements and page: highlighted
 * teasers, facets and chips, "viewing X of Y", the progress bar and a load-more link. `?page=N`
 * shows pages 1…N (their searches go in one `multi_search` with page N's; one `getServerState`). The browser hydrates with the answers
 * and pages in `state`, so it searches nothing for them.
 */
export const render: IslandRender<SearchListIslandProps> = (props, context) =>
  renders.render(`${context.url}\n${JSON.stringify(props ?? {})}`, () => renderList(props, context));

const renderList: IslandRender<SearchListIslandProps> = async (props, { config, url }) => {
  const search = config.search;
  const setup = setupFor(search);
  const options = searchListOptions(search, props);
  const address = new URL(url, 'http://shell.invalid/');
  const lastPage = requestedPage(address);
  const context = serverIslandContext(config);
  // Pages 1…N-1 travel with page N's search; the list's cache holds them, so it lists them all.
  const pages = searchWithEarlierPages(setup.searchClient, lastPage);
  const renderSetup: SearchSetup = { ...setup, searchClient: pages.searchClient };
  const cache = createSeededHitsCache(pages.earlierPages);
  const tagsLoading = suggestionTags(setup, options.facets[0]?.attribute);
  const pageUrl = withPage(address, lastPage);
  const app = (tags?: string[]) => (
    <SearchList
      setup={renderSetup}
      {...options}
      context={context}
      serverUrl={pageUrl}
      createHitsCache={() => cache}
      initialTags={tags}
    />
  );
  const serverState = await getServerState(app(), { renderToString });
  const tags = await tagsLoading;
  // Page 1 is in the answers already; the cache entry only matters for the pages before the last.
  const state: SearchListServerState = {
    serverState,
    hitsCache: lastPage > 1 ? cache.entry() : null,
    tags,
    address: listAddress(address.href, options.facets.map((facet) => facet.attribute)),
  };
  return renderReactIsland(
    'mf-search/SearchList',
    <InstantSearchSSRProvider {...serverState}>{app(tags)}</InstantSearchSSRProvider>,
    state,
  );
};

/** The empty box's suggestion tags, fetched beside the list's search. */
function suggestionTags(setup: SearchSetup, tagAttribute: string | undefined): Promise<string[]> {
  const source = createSuggestionSource(setup.suggestionClient, setup.indexName, setup.hitsPerPage, tagAttribute);
  const loading = source('').then((answer) => answer.tags);
  // Awaited after the list's search; if that fails first, this rejection must not go unhandled.
  loading.catch(() => {});
  return loading;
}
