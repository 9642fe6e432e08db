import type { IslandMount } from 'contracts';
import { bindWatchlistLink } from '../bindings/bindWatchlistLink.js';
import { connectWatchlist } from '../connectors/connectWatchlist.js';
import '../styles/watchlist.css';

/**
 * Binds the server-rendered header link (the React component's markup) without React; only where
 * there is no such markup (server render failed, standalone page) does React render it, loaded then.
 */
const mount: IslandMount = (element, _props, context) => {
  if (context.hydration !== undefined) {
    const unbind = bindWatchlistLink(element, connectWatchlist(context.bus));
    if (unbind) return unbind;
    console.warn('[mf-watchlist/WatchlistLink] server HTML did not match; the island was rendered in the browser instead');
  }
  return import('./renderInBrowser.js').then(({ renderWatchlistLink }) => renderWatchlistLink(element, context));
};

export default mount;
