import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { WatchlistLink } from '../components/WatchlistLink.js';

const mount: IslandMount = (element, _props, { bus, config, hydration }) =>
  mountReactIsland(
    element,
    'mf-watchlist/WatchlistLink',
    <WatchlistLink bus={bus} href={config.calls.watchlistPage} label={config.i18n.watchlistLink} hydrating={hydration !== undefined} />,
    { hydrate: hydration !== undefined },
  );

export default mount;
