import type { IslandMount } from 'contracts';
import { bindWatchlistLink } from '../bindings/bindWatchlistLink.js';
import { watchlistLinkMarkup } from '../bindings/watchlistMarkup.js';
import { connectWatchlist } from '../connectors/connectWatchlist.js';
import '../styles/watchlist.css';

/**
 * Binds the server-rendered header link (the React component's markup) without React. Where there
 * is no such markup (server render failed, standalone page) it puts the same markup in first; the
 * unmount then puts back what the element held.
 */
const mount: IslandMount = (element, _props, { bus, config, hydration }) => {
  const connection = connectWatchlist(bus);
  const bound = hydration !== undefined ? bindWatchlistLink(element, connection) : null;
  if (bound) return bound;
  if (hydration !== undefined) console.warn('[mf-watchlist/WatchlistLink] server HTML did not match; the island was rendered in the browser instead');
  const before = [...element.childNodes];
  element.replaceChildren(watchlistLinkMarkup(element.ownerDocument, config.calls.watchlistPage, config.i18n.watchlistLink));
  const unbind = bindWatchlistLink(element, connection)!;
  return () => {
    unbind();
    element.replaceChildren(...before);
  };
};

export default mount;
