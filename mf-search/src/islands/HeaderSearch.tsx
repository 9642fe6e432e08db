import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import '../styles/search.css';
import { loadHeaderSuggestionSource } from '../autocomplete/loadHeaderSuggestionSource.js';
import { HeaderSearch } from '../components/HeaderSearch.js';
import { logConfigurationError } from '../config/logConfigurationError.js';
import { readSearchServerSettings } from '../config/searchServerSettings.js';

/**
 * Mounts the header search box. A configuration error is logged and thrown before anything
 * renders, so the header keeps its server fallback (a GET form to the search page). The search
 * client code is not part of this expose: the box loads it on the first interaction.
 */
const mount: IslandMount = (element, _props, context) => {
  try {
    const settings = readSearchServerSettings(context.config.search);
    const loadSuggestions = () => loadHeaderSuggestionSource(settings);
    const initialQuery = new URLSearchParams(window.location.search).get('q') ?? '';
    return mountReactIsland(
      element,
      'mf-search/HeaderSearch',
      <HeaderSearch loadSuggestions={loadSuggestions} indexName={settings.indexName} context={context} initialQuery={initialQuery} />,
      { hydrate: context.hydration !== undefined },
    );
  } catch (error) {
    logConfigurationError('mf-search/HeaderSearch', error);
    throw error;
  }
};

export default mount;
