import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import '../styles/search.css';
import { SearchList } from '../components/SearchList.js';
import { createSearchClient } from '../config/createSearchClient.js';
import { logConfigurationError } from '../config/logConfigurationError.js';
import { InstantSearchSSRProvider } from 'react-instantsearch';
import { createPageSessionHitsCache } from '../hits/pageSessionHitsCache.js';
import { isSearchListServerState } from './searchListServerState.js';
import { searchListOptions, type SearchListOptionProps } from './searchListOptions.js';

/** Island props the server renders into `data-props`. */
export type SearchListIslandProps = SearchListOptionProps;

/**
 * Mounts the search list screen. A configuration error (no usable search client, no index name,
 * invalid facet or chip options) is logged and thrown before anything renders, so the island
 * keeps its server fallback (a plain GET search form) and the rest of the page is untouched.
 */
const mount: IslandMount<SearchListIslandProps> = (element, props, context) => {
  const search = context.config.search;
  try {
    const setup = createSearchClient(search);
    const options = searchListOptions(search, props);
    // Server-rendered: start from the server's answers, pages and tags (nothing is searched for them).
    const server = isSearchListServerState(context.hydration?.state) ? context.hydration.state : undefined;
    const list = (
      <SearchList
        setup={setup}
        {...options}
        context={context}
        createHitsCache={server ? () => createPageSessionHitsCache(window, server.hitsCache) : undefined}
        initialTags={server?.tags}
      />
    );
    return mountReactIsland(
      element,
      'mf-search/SearchList',
      server ? <InstantSearchSSRProvider {...server.serverState}>{list}</InstantSearchSSRProvider> : list,
      { hydrate: server !== undefined },
    );
  } catch (error) {
    logConfigurationError('mf-search/SearchList', error);
    throw error;
  }
};

export default mount;
