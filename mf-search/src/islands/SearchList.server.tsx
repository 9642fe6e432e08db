import { renderToString } from 'react-dom/server';
import { getServerState, InstantSearchSSRProvider } from 'react-instantsearch';
import { ISLAND_API_VERSION, type IslandRender, type SearchConfiguration } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { createSuggestionSource } from '../autocomplete/createSuggestionSource.js';
import { SearchList } from '../components/SearchList.js';
import { createSearchClient, type SearchSetup } from '../config/createSearchClient.js';
import { createMemoryHitsCache } from '../hits/memoryHitsCache.js';
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
 * shows pages 1…N (each earlier page is one more search). The browser hydrates with the answers
 * and pages in `state`, so it searches nothing for them.
 */
export const render: IslandRender<SearchListIslandProps> = (props, context) =>
  renders.render(`${context.url}\n${JSON.stringify(props ?? {})}`, () => renderList(props, context));

const renderList: IslandRender<SearchListIslandProps> = async (props, { config, url }) => {
  const search = config.search;
  const setup = setupFor(search);
  const options = searchListOptions(search, props);
  const { facets } = options;
  const address = new URL(url, 'http://shell.invalid/');
  const lastPage = requestedPage(address);
  const context = serverIslandContext(config);
  const cache = createMemoryHitsCache();
  const source = createSuggestionSource(setup.suggestionClient, setup.indexName, setup.hitsPerPage, facets[0]?.attribute);
  const tagsLoading = source('').then((answer) => answer.tags);
  // Awaited below; if a search before it fails, its own rejection must not go unhandled.
  tagsLoading.catch(() => {});
  const app = (pageUrl: string, tags?: string[]) => (
    <SearchList
      setup={setup}
      {...options}
      context={context}
      serverUrl={pageUrl}
      createHitsCache={() => cache}
      initialTags={tags}
    />
  );
  // Earlier pages first: each answer lands in the list's cache, so the last render lists them all.
  for (let page = 1; page < lastPage; page += 1) {
    await getServerState(app(withPage(address, page)), { renderToString });
  }
  const lastUrl = withPage(address, lastPage);
  const serverState = await getServerState(app(lastUrl), { renderToString });
  const tags = await tagsLoading;
  // Page 1 is in the answers already; the cache entry only matters for the pages before the last.
  const state: SearchListServerState = {
    serverState,
    hitsCache: lastPage > 1 ? cache.entry() : null,
    tags,
    address: listAddress(address.href, facets.map((facet) => facet.attribute)),
  };
  return renderReactIsland(
    'mf-search/SearchList',
    <InstantSearchSSRProvider {...serverState}>{app(lastUrl, tags)}</InstantSearchSSRProvider>,
    state,
  );
};
