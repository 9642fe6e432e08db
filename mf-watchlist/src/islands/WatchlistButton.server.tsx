import { ISLAND_API_VERSION, type IslandRender, ISLAND_CACHE_TTL_MS } from 'contracts';
import { renderReactIsland } from '@khs/react-island/server';
import { WatchlistButton } from '../components/WatchlistButton.js';
import type { WatchlistButtonIslandProps } from './WatchlistButton.js';
import { serverPageBus } from './serverPageBus.js';

export const islandApiVersion = ISLAND_API_VERSION;
/** The render depends on props, address and page config only: the shell may reuse it for the site's island cache time (contracts). */
export const cacheTtlMs = ISLAND_CACHE_TTL_MS;

/** The button as "not saved": the list lives in the browser, which updates it after hydration. */
export const render: IslandRender<WatchlistButtonIslandProps> = async (props, { config }) => {
  if (typeof props?.id !== 'string' || typeof props.title !== 'string') {
    throw new TypeError('WatchlistButton needs string props "id" and "title"');
  }
  return renderReactIsland(
    'mf-watchlist/WatchlistButton',
    <WatchlistButton
      id={props.id}
      title={props.title}
      bus={serverPageBus()}
      addLabel={config.i18n.watchlistAdd}
      removeLabel={config.i18n.watchlistRemove}
      failureLabel={config.i18n.watchlistStorageFailed}
      hydrating
    />,
  );
};
