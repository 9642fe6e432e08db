import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { WatchlistButton } from '../components/WatchlistButton.js';

/** Island props the server renders into `data-props`. */
export interface WatchlistButtonIslandProps {
  id: string;
  title: string;
}

const mount: IslandMount<WatchlistButtonIslandProps> = (element, props, { bus, config, hydration }) => {
  if (typeof props?.id !== 'string' || typeof props.title !== 'string') {
    throw new TypeError('WatchlistButton needs string props "id" and "title"');
  }
  return mountReactIsland(
    element,
    'mf-watchlist/WatchlistButton',
    <WatchlistButton
      id={props.id}
      title={props.title}
      bus={bus}
      addLabel={config.i18n.watchlistAdd}
      removeLabel={config.i18n.watchlistRemove}
      failureLabel={config.i18n.watchlistStorageFailed}
      hydrating={hydration !== undefined}
    />,
    { hydrate: hydration !== undefined },
  );
};

export default mount;
