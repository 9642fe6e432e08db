import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import type { WatchlistServices } from '../api/watchlistServices.js';
import { WatchlistScreen } from '../components/watchlist-screen/WatchlistScreen.js';
import type { WatchlistScreenIslandProps } from './WatchlistScreen.js';
import { serverPageBus } from './serverPageBus.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

const serverServices: WatchlistServices = {
  fetch: () => Promise.reject(new Error('the watchlist screen calls nothing on the server')),
  saveFile: () => {},
  writeClipboard: () => Promise.reject(new Error('no clipboard on the server')),
  logger: console,
};

/** The screen's loading state: the list lives in the browser, which loads it after hydration. */
export const render: IslandRender<WatchlistScreenIslandProps> = async (props, { config }) =>
  renderReactIsland(
    'mf-watchlist/WatchlistScreen',
    <WatchlistScreen
      bus={serverPageBus()}
      config={config}
      services={serverServices}
      designMode={props?.designMode === true}
      showHeadline={props?.designMode === true}
    />,
  );
