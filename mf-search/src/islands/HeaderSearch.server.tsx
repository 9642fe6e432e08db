import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { HeaderSearch } from '../components/HeaderSearch.js';
import { readSearchServerSettings } from '../config/searchServerSettings.js';
import { serverIslandContext } from './serverIslandContext.js';
import { disposeServerSearchTransport } from './serverSearchTransport.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;
export const dispose = disposeServerSearchTransport;

/** The header search box (a GET form to the search page), with the address's `?q=` in it. */
export const render: IslandRender = async (_props, { config, url }) => {
  const settings = readSearchServerSettings(config.search);
  const initialQuery = new URL(url, 'http://shell.invalid/').searchParams.get('q') ?? '';
  return renderReactIsland(
    'mf-search/HeaderSearch',
    <HeaderSearch
      loadSuggestions={() => Promise.reject(new Error('no suggestions on the server'))}
      indexName={settings.indexName}
      context={serverIslandContext(config)}
      initialQuery={initialQuery}
    />,
  );
};
