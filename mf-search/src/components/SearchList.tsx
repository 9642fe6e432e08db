import { useMemo } from 'react';
import { Configure, InstantSearch } from 'react-instantsearch';
import { LIST_STALLED_DELAY_MS, type IslandContext } from 'contracts';
import { createSuggestionSource } from '../autocomplete/createSuggestionSource.js';
import type { ChipOptions } from '../config/chipOptions.js';
import type { SearchSetup } from '../config/createSearchClient.js';
import type { ValidFacetOptions } from '../config/facetOptions.js';
import { InsightsMiddleware } from '../insights/InsightsMiddleware.js';
import { useSearchInsights } from '../insights/useSearchInsights.js';
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from '../highlight/parseHighlight.js';
import type { IndexUiState } from 'instantsearch.js';
import { HitListEnvironmentContext, type DisposableHitsCache, type HitListEnvironment } from '../hits/hitListEnvironment.js';
import { createSearchRouting } from '../routing/createSearchRouting.js';
import { routeHref, uiStateToRoute } from '../routing/searchRouteState.js';
import { DisposeOnUnmount } from './DisposeOnUnmount.js';
import { SearchContextProvider } from './SearchContextProvider.js';
import { SearchListScreen } from './SearchListScreen.js';

export interface SearchListProps {
  /** Search client, index and hits per page (`createSearchClient`). */
  setup: SearchSetup;
  /** Validated facets. */
  facets: ValidFacetOptions[];
  /** Validated chip options. Default: every filter gets a chip. */
  chips?: ChipOptions;
  /** Results stay hidden until a query exists. Default `false`. */
  hideResults?: boolean;
  /** Results-hidden flag at start. Default `false`. */
  resultsHidden?: boolean;
  /** Bus, config (texts, insights endpoint) and consent of the page. */
  context: IslandContext;
  /** Keep the state in the address. Default `true`. */
  routing?: boolean;
  /** The page's absolute address, when rendering on the server (the router reads it). Default: the window's. */
  serverUrl?: string;
  /** Cache of the infinite hit list. Default: the page-session cache. */
  createHitsCache?: () => DisposableHitsCache;
  /** Suggestion tags the server fetched. Default: fetched in the browser. */
  initialTags?: string[];
  /** Hits a view event was already sent for (by the binding of the server markup): not sent again. Default none. */
  viewedObjectIds?: ReadonlySet<string>;
  /** The query the page was opened with was tracked as a submission already (the binding did, from the server's answer). Default `false`. */
  openedQueryReported?: boolean;
  /**
   * Dispose the InstantSearch instance at unmount. Needed when hydrating under
   * `InstantSearchSSRProvider`, where React InstantSearch never does (see `DisposeOnUnmount`); must
   * stay off otherwise (React InstantSearch disposes it a moment later, and twice would fail).
   * Default `false`.
   */
  disposeOnUnmount?: boolean;
}

function openedWithQuery(): string {
  return typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('q') ?? '');
}

/** The search list screen wired to InstantSearch, routing, consent-gated insights and the bus. */
export function SearchList({
  setup,
  facets,
  chips = {},
  hideResults = false,
  resultsHidden = false,
  context,
  routing = true,
  serverUrl,
  createHitsCache,
  initialTags,
  viewedObjectIds,
  openedQueryReported = false,
  disposeOnUnmount = false,
}: SearchListProps) {
  const { config, bus } = context;
  const { client: insightsClient, autocomplete: insights } = useSearchInsights(context, setup.indexName);
  const facetAttributes = useMemo(() => facets.map((facet) => facet.attribute), [facets]);
  const searchRouting = useMemo(
    () => (routing ? createSearchRouting(setup.indexName, facetAttributes, serverUrl) : undefined),
    [routing, setup.indexName, facetAttributes, serverUrl],
  );
  const searchPage = config.calls.searchPage;
  const hitList = useMemo<HitListEnvironment>(
    () => ({
      createCache: createHitsCache,
      pageHref: (indexUiState: IndexUiState, page: number) =>
        routeHref(searchPage, uiStateToRoute({ [setup.indexName]: { ...indexUiState, page } }, setup.indexName, facetAttributes)),
    }),
    [createHitsCache, searchPage, setup.indexName, facetAttributes],
  );
  const source = useMemo(
    () => createSuggestionSource(setup.suggestionClient, setup.indexName, setup.hitsPerPage, facetAttributes[0]),
    [setup, facetAttributes],
  );
  const texts = config.i18n;
  const i18n = useMemo(() => ({ viewing: texts.viewing, loadMore: texts.loadMore }), [texts]);
  const initialQuery = useMemo(() => (openedQueryReported ? '' : openedWithQuery()), []);

  return (
    <HitListEnvironmentContext.Provider value={hitList}>
    <SearchContextProvider hideResults={hideResults} initialResultsHidden={resultsHidden} i18n={i18n}>
      <InstantSearch
        searchClient={setup.searchClient}
        indexName={setup.indexName}
        routing={searchRouting}
        stalledSearchDelay={LIST_STALLED_DELAY_MS}
        future={{ preserveSharedStateOnUnmount: true }}
      >
        {disposeOnUnmount ? <DisposeOnUnmount /> : null}
        <Configure hitsPerPage={setup.hitsPerPage} highlightPreTag={HIGHLIGHT_PRE_TAG} highlightPostTag={HIGHLIGHT_POST_TAG} />
        <InsightsMiddleware client={insightsClient} alreadyViewed={viewedObjectIds} />
        <SearchListScreen
          bus={bus}
          texts={texts}
          source={source}
          facets={facets}
          chips={chips}
          insights={insights}
          openedWithQuery={initialQuery}
          initialTags={initialTags}
        />
      </InstantSearch>
    </SearchContextProvider>
    </HitListEnvironmentContext.Provider>
  );
}
