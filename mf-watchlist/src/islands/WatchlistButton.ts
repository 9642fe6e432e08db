import type { IslandMount } from 'contracts';
import { bindWatchlistButton } from '../bindings/bindWatchlistButton.js';
import { watchlistButtonMarkup } from '../bindings/watchlistMarkup.js';
import { connectWatchlist } from '../connectors/connectWatchlist.js';
import '../styles/watchlist.css';

/** Island props the server renders into `data-props`. */
export interface WatchlistButtonIslandProps {
  id: string;
  title: string;
}

/**
 * Binds the server-rendered button (the React component's markup) without React. Where there is
 * no such markup (server render failed, standalone page) it puts the same markup in first; the
 * unmount then puts back what the element held.
 */
const mount: IslandMount<WatchlistButtonIslandProps> = (element, props, { bus, config, hydration }) => {
  if (typeof props?.id !== 'string' || typeof props.title !== 'string') {
    throw new TypeError('WatchlistButton needs string props "id" and "title"');
  }
  const binding = {
    id: props.id,
    title: props.title,
    addLabel: config.i18n.watchlistAdd,
    removeLabel: config.i18n.watchlistRemove,
    failureLabel: config.i18n.watchlistStorageFailed,
    connection: connectWatchlist(bus),
  };
  const bound = hydration !== undefined ? bindWatchlistButton(element, binding) : null;
  if (bound) return bound;
  if (hydration !== undefined) console.warn('[mf-watchlist/WatchlistButton] server HTML did not match; the island was rendered in the browser instead');
  const before = [...element.childNodes];
  element.replaceChildren(watchlistButtonMarkup(element.ownerDocument, binding.addLabel));
  const unbind = bindWatchlistButton(element, binding)!;
  return () => {
    unbind();
    element.replaceChildren(...before);
  };
};

export default mount;
