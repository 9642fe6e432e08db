// Loaded only when a watchlist control has no server markup to bind to (its server render failed,
// or the standalone page): then React renders the component, as the island did before it was
// bound without React. A separate chunk, so pages with server markup never load React for it.
import type { IslandContext, Unmount } from 'contracts';
import { mountReactIsland } from '@khs/react-island';
import { WatchlistButton } from '../components/WatchlistButton.js';
import { WatchlistLink } from '../components/WatchlistLink.js';
import type { WatchlistButtonIslandProps } from './WatchlistButton.js';

/** Renders the `WatchlistButton` component into `element` (replacing what it holds). */
export function renderWatchlistButton(element: HTMLElement, props: WatchlistButtonIslandProps, { bus, config }: IslandContext): Promise<Unmount> {
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
    />,
  );
}

/** Renders the `WatchlistLink` component into `element` (replacing what it holds). */
export function renderWatchlistLink(element: HTMLElement, { bus, config }: IslandContext): Promise<Unmount> {
  return mountReactIsland(element, 'mf-watchlist/WatchlistLink', <WatchlistLink bus={bus} href={config.calls.watchlistPage} label={config.i18n.watchlistLink} />);
}
