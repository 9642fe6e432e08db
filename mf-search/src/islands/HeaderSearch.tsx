import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import '../styles/search.css';
import { HeaderSearch } from '../components/HeaderSearch.js';
import { createSearchClient } from '../config/createSearchClient.js';
import { logConfigurationError } from '../config/logConfigurationError.js';

/**
 * Mounts the header search box. A configuration error is logged and thrown before anything
 * renders, so the header keeps its server fallback (a GET form to the search page).
 */
const mount: IslandMount = (element, _props, context) => {
  try {
    const setup = createSearchClient(context.config.search);
    const initialQuery = new URLSearchParams(window.location.search).get('q') ?? '';
    return mountReactIsland(element, 'mf-search/HeaderSearch', <HeaderSearch setup={setup} context={context} initialQuery={initialQuery} />);
  } catch (error) {
    logConfigurationError('mf-search/HeaderSearch', error);
    throw error;
  }
};

export default mount;
