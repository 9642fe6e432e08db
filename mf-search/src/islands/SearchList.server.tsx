import { renderToString } from 'react-dom/server';
import { getServerState, InstantSearchSSRProvider } from 'react-instantsearch';
import { ISLAND_API_VERSION, SEARCH_CACHE_SECONDS, type IslandRender, type IslandServerContext, type SearchConfiguration } from 'contracts';
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
import { createSearchRouting } from '../routing/createSearchRouting.js';
import { createListSearchTemplates, listSearchTemplate, recordingSearchClient, serverStateFromTemplate } from './listSearchTemplates.js';
import { INDEX_VERSION_MAX_AGE_MS } from '../config/indexVersion.js';

export const islandApiVersion = ISLAND_API_VERSION;

/** The setup of the last render: its index version is what `dataVersion` reports and the poll keeps fresh. */
let lastSetup: SearchSetup | undefined;
/** Keeps the known index version at most about a second old, so the shell tags pages with it without waiting. */
let versionPoll: NodeJS.Timeout | undefined;

/**
 * The index version this island's answers are of (`config/indexVersion.ts`), for the shell's page
 * version: a shared-cacheable page is re-tagged once the index changed, so no proxy or browser
 * keeps hits from before a publish through 304s. Undefined before the first render.
 */
export const dataVersion = (): string | undefined => lastSetup?.indexVersion.known();

export function dispose(): void {
  clearInterval(versionPoll);
  versionPoll = undefined;
  disposeServerSearchTransport();
}

/** Pages a server render fills at most (`?page=40` renders 1…5 and offers more): bounded work per request. */
export const MAX_SERVER_PAGES = 5;

/**
 * Identical list renders share one run for as long as the answers under them are cached
 * (`SEARCH_CACHE_SECONDS`; keyed on the index version, so no longer than it stands); at most 4
 * distinct ones run at once. Kept shorter, a render that missed the island budget on a busy
 * machine was gone before the next visitor came, who then missed it too.
 */
const renders = createServerRenderCache({ ttlMs: SEARCH_CACHE_SECONDS * 1000, maxEntries: 200, maxInFlight: 4 });

/** One search setup per search configuration (the page config is built once per shell process). */
const setups = new WeakMap<object, SearchSetup>();
/**
 * Per setup, what InstantSearch sends for each search shape (`listSearchTemplates.ts`): a render
 * of a shape seen before searches and renders once, without `getServerState`'s first pass.
 */
const templatesOf = new WeakMap<SearchSetup, ReturnType<typeof createListSearchTemplates>>();
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
export const render: IslandRender<SearchListIslandProps> = async (props, context) => {
  const setup = setupFor(context.config.search);
  lastSetup = setup;
  versionPoll ??= setInterval(() => void lastSetup?.indexVersion.current(), INDEX_VERSION_MAX_AGE_MS / 2).unref();
  // Renders (and the answers under them) are shared only within one index version.
  const indexVersion = await setup.indexVersion.current();
  return renders.render(`${indexVersion}\n${context.url}\n${JSON.stringify(props ?? {})}`, () => renderList(props, context, setup, indexVersion));
};

async function renderList(props: SearchListIslandProps, { config, url }: IslandServerContext, setup: SearchSetup, indexVersion: string) {
  const search = config.search;
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
  const app = ({ tags, setup: listSetup = renderSetup }: { tags?: string[]; setup?: SearchSetup } = {}) => (
    <SearchList
      setup={listSetup}
      {...options}
      context={context}
      serverUrl={pageUrl}
      createHitsCache={() => cache}
      initialTags={tags}
    />
  );
  const serverState = await listServerState(props, setup, pageUrl, options.facets, pages.searchClient, (searchClient) =>
    getServerState(app({ setup: { ...renderSetup, searchClient } }), { renderToString }),
  );
  const tags = await tagsLoading;
  const state: SearchListServerState = {
    serverState,
    hitsCache: null,
    tags,
    address: listAddress(address.href, options.facets.map((facet) => facet.attribute)),
    indexVersion,
  };
  const island = renderReactIsland('mf-search/SearchList', <InstantSearchSSRProvider {...serverState}>{app({ tags })}</InstantSearchSSRProvider>, state);
  // Page 1 is in the answers already; the cache entry only matters for the pages before the last.
  // Read after the render: the list writes it when it first reads the cache (`createSeededHitsCache`).
  if (lastPage > 1) state.hitsCache = cache.entry();
  return island;
}

/**
 * InstantSearch's server state for the address. The first render of a search shape (the
 * address's UI state without its query, and the island's props) runs `getServerState`, which
 * renders the tree once to learn the requests, and keeps what it sent as that shape's template;
 * later renders of the shape send the template's requests with their own query and build the
 * same state from the answer (the test holds them equal, markup and state), so the list is
 * rendered once. The UI state is read by the list's own routing, as InstantSearch reads it.
 */
async function listServerState(
  props: SearchListIslandProps,
  setup: SearchSetup,
  pageUrl: string,
  facets: ReadonlyArray<{ attribute: string }>,
  searchClient: SearchSetup['searchClient'],
  runServerState: (searchClient: SearchSetup['searchClient']) => ReturnType<typeof getServerState>,
) {
  const routing = createSearchRouting(setup.indexName, facets.map((facet) => facet.attribute), pageUrl);
  const { query = '', ...shape } = routing.stateMapping.routeToState(routing.router.read())[setup.indexName] ?? {};
  const key = JSON.stringify([props ?? {}, shape, query !== '']);
  let templates = templatesOf.get(setup);
  if (!templates) templatesOf.set(setup, (templates = createListSearchTemplates(200)));
  const template = templates.get(key);
  if (template) return serverStateFromTemplate(template, query, searchClient);
  const recording = recordingSearchClient(searchClient);
  const serverState = await runServerState(recording.searchClient);
  const made = listSearchTemplate(serverState, recording.calls, query);
  if (made) templates.set(key, made);
  return serverState;
}

/** The empty box's suggestion tags, fetched beside the list's search. */
function suggestionTags(setup: SearchSetup, tagAttribute: string | undefined): Promise<string[]> {
  const source = createSuggestionSource(setup.suggestionClient, setup.indexName, setup.hitsPerPage, tagAttribute);
  const loading = source('').then((answer) => answer.tags);
  // Awaited after the list's search; if that fails first, this rejection must not go unhandled.
  loading.catch(() => {});
  return loading;
}
