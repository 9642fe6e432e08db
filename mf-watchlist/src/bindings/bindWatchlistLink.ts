import { watchlistCount } from '../storage/watchlistStorage.js';
import type { WatchlistConnection } from '../connectors/connectWatchlist.js';
import { setText } from './setText.js';

/**
 * Keeps the server-rendered markup of the `WatchlistLink` component (inside `element`) current
 * without React: the badge (`data-count`, its number) and the visually hidden count follow the
 * stored list. Returns the unbind function, or null when `element` does not hold that markup
 * (the caller renders it instead).
 */
export function bindWatchlistLink(element: HTMLElement, connection: WatchlistConnection): (() => void) | null {
  const badge = element.querySelector('a.khs-watchlist-link > .khs-watchlist-link__badge');
  const hiddenCount = element.querySelector('a.khs-watchlist-link > .khs-watchlist-visually-hidden');
  if (!badge || !hiddenCount) return null;
  const render = (count: number) => {
    badge.setAttribute('data-count', String(count));
    setText(badge, String(count));
    setText(hiddenCount, ` (${count})`);
  };
  const unsubscribe = connection.subscribe((watchlist) => render(watchlistCount(watchlist)));
  render(watchlistCount(connection.read()));
  return unsubscribe;
}
