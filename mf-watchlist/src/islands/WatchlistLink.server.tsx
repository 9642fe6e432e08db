import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { WatchlistLink } from '../components/WatchlistLink.js';
import { serverPageBus } from './serverPageBus.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/** The header link with a count of 0: the browser knows the real count and sets it after hydration. */
export const render: IslandRender = async (_props, { config }) =>
  renderReactIsland(
    'mf-watchlist/WatchlistLink',
    <WatchlistLink bus={serverPageBus()} href={config.calls.watchlistPage} label={config.i18n.watchlistLink} hydrating />,
  );
