import { history } from 'instantsearch.js/es/lib/routers/index.js';
import type { UiState } from 'instantsearch.js';
import { QUERY_STRING_ARRAY_LIMIT, URL_WRITE_DELAY_MS } from 'contracts';
import { routeToUiState, uiStateToRoute, type SearchRouteState } from './searchRouteState.js';

/**
 * InstantSearch routing that keeps the query, the facet filters and the page in the address:
 * writes are delayed by `URL_WRITE_DELAY_MS`, at most `QUERY_STRING_ARRAY_LIMIT` values are read
 * per array, and reload, back and forward restore the state.
 */
export function createSearchRouting(indexName: string, facetAttributes: string[], serverUrl?: string) {
  return {
    router: history<SearchRouteState>({
      // On the server the address is the request's; in the browser, the window's.
      getLocation: () => (typeof window === 'undefined' ? (new URL(serverUrl ?? 'http://localhost/') as unknown as Location) : window.location),
      writeDelay: URL_WRITE_DELAY_MS,
      cleanUrlOnDispose: false,
      createURL({ qsModule, routeState, location }) {
        const query = qsModule.stringify(routeState, { arrayFormat: 'repeat', addQueryPrefix: true });
        // Absolute in the browser: the router skips a write only when the URL equals
        // `location.href`, so a relative one pushed a duplicate entry (after hydration: Back
        // seemed to do nothing).
        const origin = typeof window === 'undefined' ? '' : location.origin;
        return `${origin}${location.pathname}${query}${location.hash}`;
      },
      parseURL({ qsModule, location }) {
        return qsModule.parse(location.search.slice(1), { arrayLimit: QUERY_STRING_ARRAY_LIMIT }) as SearchRouteState;
      },
    }),
    stateMapping: {
      stateToRoute: (uiState: UiState) => uiStateToRoute(uiState, indexName, facetAttributes),
      routeToState: (route: SearchRouteState) => routeToUiState(route, indexName, facetAttributes),
    },
  };
}
