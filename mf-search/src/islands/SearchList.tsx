import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import '../styles/search.css';
import { SearchList } from '../components/SearchList.js';
import { validateChipOptions, type ChipOptions } from '../config/chipOptions.js';
import { createSearchClient } from '../config/createSearchClient.js';
import { validateFacetOptions } from '../config/facetOptions.js';
import { logConfigurationError } from '../config/logConfigurationError.js';
import { InstantSearchSSRProvider } from 'react-instantsearch';
import { createPageSessionHitsCache } from '../hits/pageSessionHitsCache.js';
import { isSearchListServerState } from './searchListServerState.js';

/** Island props the server renders into `data-props`. */
export interface SearchListIslandProps {
  /** Results stay hidden until a query exists. Default: `config.search.hideResults`. */
  hideResults?: boolean;
  /** Results-hidden flag at start. Default `false`. */
  resultsHidden?: boolean;
  /** Which applied filters get chips. Default: all. */
  chips?: ChipOptions;
}

/**
 * Mounts the search list screen. A configuration error (no usable search client, no index name,
 * invalid facet or chip options) is logged and thrown before anything renders, so the island
 * keeps its server fallback (a plain GET search form) and the rest of the page is untouched.
 */
const mount: IslandMount<SearchListIslandProps> = (element, props, context) => {
  const search = context.config.search;
  try {
    const setup = createSearchClient(search);
    const facets = (Array.isArray(search.facets) ? search.facets : []).map(validateFacetOptions);
    const chips = validateChipOptions(props?.chips);
    // Server-rendered: start from the server's answers, pages and tags (nothing is searched for them).
    const server = isSearchListServerState(context.hydration?.state) ? context.hydration.state : undefined;
    const list = (
      <SearchList
        setup={setup}
        facets={facets}
        chips={chips}
        hideResults={typeof props?.hideResults === 'boolean' ? props.hideResults : search.hideResults === true}
        resultsHidden={props?.resultsHidden === true}
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
