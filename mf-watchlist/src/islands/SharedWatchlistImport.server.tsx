import { ISLAND_API_VERSION, readLocalWatchlist, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { SharedWatchlistImport } from '../components/watchlist-screen/SharedWatchlistImport.js';
import type { SharedWatchlistImportIslandProps } from './SharedWatchlistImport.js';
import { serverPageBus } from './serverPageBus.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/** The import button for the shared list (the import itself happens in the browser). */
export const render: IslandRender<SharedWatchlistImportIslandProps> = async (props, { config }) => {
  const { watchlist } = readLocalWatchlist(props);
  return renderReactIsland(
    'mf-watchlist/SharedWatchlistImport',
    <SharedWatchlistImport articles={watchlist.articles} bus={serverPageBus()} watchlistHref={config.calls.watchlistPage} />,
  );
};
