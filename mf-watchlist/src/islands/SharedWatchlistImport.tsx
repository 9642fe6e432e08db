import { readLocalWatchlist, type IslandMount, type LocalWatchlist } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { SharedWatchlistImport } from '../components/watchlist-screen/SharedWatchlistImport.js';

/** Island props the shell's shared-watchlist page renders. */
export interface SharedWatchlistImportIslandProps {
  articles: LocalWatchlist['articles'];
}

const mount: IslandMount<SharedWatchlistImportIslandProps> = (element, props, { bus, config, hydration }) => {
  // Props come from the page: read them like any untrusted watchlist (bad entries dropped).
  const { watchlist } = readLocalWatchlist(props);
  return mountReactIsland(
    element,
    'mf-watchlist/SharedWatchlistImport',
    <SharedWatchlistImport articles={watchlist.articles} bus={bus} watchlistHref={config.calls.watchlistPage} />,
    { hydrate: hydration !== undefined },
  );
};

export default mount;
