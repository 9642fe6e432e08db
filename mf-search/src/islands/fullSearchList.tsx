import type { IslandContext, Unmount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { SearchList } from '../components/SearchList.js';
import { createSearchClient } from '../config/createSearchClient.js';
import type { EarlyAnswers } from '../config/earlySearch.js';
import { logConfigurationError } from '../config/logConfigurationError.js';
import { withServerAnswers } from '../config/serverAnswers.js';
import { InstantSearchSSRProvider } from 'react-instantsearch';
import { createPageSessionHitsCache } from '../hits/pageSessionHitsCache.js';
import { isSearchListServerState } from './searchListServerState.js';
import { searchListOptions, type SearchListOptionProps } from './searchListOptions.js';

export interface FullSearchListOptions {
  /** Hits a view event was already sent for (by the binding): not sent again. Default none. */
  viewedObjectIds?: ReadonlySet<string>;
  /** The query the page was opened with was tracked as a submission already (by the binding). Default `false`. */
  openedQueryReported?: boolean;
  /** Answers the binding fetched for typed queries before this island was there: an identical first search takes one. Default none. */
  earlyAnswers?: EarlyAnswers;
  /**
   * Settle only once React has hydrated the list, however long that takes: the binding then hands
   * over typed text (which the hydrated box must see as a change) and replays held actions. On a
   * loaded device hydration can outlast the mount's usual bound, and text handed to a box React
   * had not hydrated yet was lost. Default `false` (settled at the latest after
   * `FIRST_COMMIT_TIMEOUT_MS` of `@khs/react-island`).
   */
  untilHydrated?: boolean;
}

/**
 * The full search list (React, InstantSearch, the search client): the `SearchList` expose loads
 * it as its own chunks when the visitor starts to search or filter, or at once where there is no
 * server markup to bind. A configuration error (no usable search client, no index name, invalid
 * facet or chip options) is logged and thrown before anything renders, so the island keeps its
 * server fallback (a plain GET search form) and the rest of the page is untouched.
 */
export function mountFullSearchList(
  element: HTMLElement,
  props: SearchListOptionProps | undefined,
  context: IslandContext,
  { viewedObjectIds, openedQueryReported = false, earlyAnswers, untilHydrated = false }: FullSearchListOptions = {},
): Promise<Unmount> {
  const search = context.config.search;
  try {
    const options = searchListOptions(search, props);
    // Server-rendered: start from the server's answers, pages and tags (nothing is searched for
    // them, not even when InstantSearch asks for the same state again).
    const server = isSearchListServerState(context.hydration?.state) ? context.hydration.state : undefined;
    const client = createSearchClient(search, earlyAnswers ? { earlyAnswers } : {});
    const setup = server
      ? {
          ...client,
          searchClient: withServerAnswers(
            client.searchClient,
            server.serverState.initialResults,
            Date.now,
            server.indexVersion === undefined ? undefined : { rendered: server.indexVersion, reader: client.indexVersion },
          ),
        } : client;
    const list = (
      <SearchList
        setup={setup}
        {...options}
        context={context}
        createHitsCache={server ? () => createPageSessionHitsCache(window, server.hitsCache) : undefined}
        initialTags={server?.tags}
        viewedObjectIds={viewedObjectIds}
        openedQueryReported={openedQueryReported}
        disposeOnUnmount={server !== undefined}
      />
    );
    return mountReactIsland(
      element,
      'mf-search/SearchList',
      server ? <InstantSearchSSRProvider {...server.serverState}>{list}</InstantSearchSSRProvider> : list,
      { hydrate: server !== undefined, ...(untilHydrated ? { firstCommitTimeoutMs: Infinity } : {}) },
    );
  } catch (error) {
    logConfigurationError('mf-search/SearchList', error);
    throw error;
  }
}
