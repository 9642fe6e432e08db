import type { IslandMount } from 'contracts';
import { bindWatchlistButton } from '../bindings/bindWatchlistButton.js';
import { connectWatchlist } from '../connectors/connectWatchlist.js';
import '../styles/watchlist.css';

/** Island props the server renders into `data-props`. */
export interface WatchlistButtonIslandProps {
  id: string;
  title: string;
}

/**
 * Binds the server-rendered button (the React component's markup) without React; only where
 * there is no such markup (server render failed, standalone page) does React render it, loaded then.
 */
const mount: IslandMount<WatchlistButtonIslandProps> = (element, props, context) => {
  if (typeof props?.id !== 'string' || typeof props.title !== 'string') {
    throw new TypeError('WatchlistButton needs string props "id" and "title"');
  }
  const { bus, config, hydration } = context;
  if (hydration !== undefined) {
    const unbind = bindWatchlistButton(element, {
      id: props.id,
      title: props.title,
      addLabel: config.i18n.watchlistAdd,
      removeLabel: config.i18n.watchlistRemove,
      failureLabel: config.i18n.watchlistStorageFailed,
      connection: connectWatchlist(bus),
    });
    if (unbind) return unbind;
    console.warn('[mf-watchlist/WatchlistButton] server HTML did not match; the island was rendered in the browser instead');
  }
  return import('./renderInBrowser.js').then(({ renderWatchlistButton }) => renderWatchlistButton(element, props, context));
};

export default mount;
