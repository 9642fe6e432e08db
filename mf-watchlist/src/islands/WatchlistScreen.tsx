import type { IslandMount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { WatchlistScreen } from '../components/watchlist-screen/WatchlistScreen.js';

/** Island props. The shell renders `{}`; the standalone page sets `designMode`. */
export interface WatchlistScreenIslandProps {
  /** Standalone design mode: dummy data after a failed load. Default false. */
  designMode?: boolean;
}

const mount: IslandMount<WatchlistScreenIslandProps> = (element, props, { bus, config, hydration }) =>
  mountReactIsland(
    element,
    'mf-watchlist/WatchlistScreen',
    <WatchlistScreen bus={bus} config={config} designMode={props?.designMode === true} showHeadline={props?.designMode === true} />,
    { hydrate: hydration !== undefined },
  );

export default mount;
