import type { LocalWatchlist } from 'contracts';
import { isSaved, type WatchlistConnection } from '../connectors/connectWatchlist.js';
import { WATCHLIST_BUTTON_ADDED_DETAILS } from '../connectors/watchlistButtonEvent.js';
import { setText } from './setText.js';

export interface WatchlistButtonBinding {
  /** Article id (the key in the local watchlist). */
  id: string;
  /** Article title saved with the entry. */
  title: string;
  /** Label while the article is not saved. */
  addLabel: string;
  /** Label while the article is saved. */
  removeLabel: string;
  /** Text shown when local storage refused the change. */
  failureLabel: string;
  connection: WatchlistConnection;
}

/**
 * Makes the server-rendered markup of the `WatchlistButton` component (inside `element`) work
 * without React: shows the stored state (`aria-pressed`, `data-saved`, label, icon fill), enables
 * the button, toggles on click through the connection and says so when storage refused. Returns
 * the unbind function (listeners removed, the button disabled again as the server rendered it),
 * or null when `element` does not hold that markup (the caller renders it instead).
 */
export function bindWatchlistButton(element: HTMLElement, binding: WatchlistButtonBinding): (() => void) | null {
  const button = element.querySelector<HTMLButtonElement>('.khs-watchlist-button > button.khs-watchlist-button__toggle');
  const label = button?.querySelector(':scope > span');
  const icon = button?.querySelector(':scope > svg > path');
  const status = element.querySelector('.khs-watchlist-button > .khs-watchlist-button__status');
  if (!button || !label || !icon || !status) return null;

  let watchlist: LocalWatchlist = binding.connection.read();
  let failed = false;
  const render = () => {
    const saved = isSaved(watchlist, binding.id);
    button.setAttribute('aria-pressed', String(saved));
    button.setAttribute('data-saved', String(saved));
    icon.setAttribute('fill', saved ? 'currentColor' : 'none');
    setText(label, saved ? binding.removeLabel : binding.addLabel);
    setText(status, failed ? binding.failureLabel : '');
  };
  const unsubscribe = binding.connection.subscribe((next) => {
    watchlist = next;
    render();
  });
  const onClick = () => {
    // On success the connection's `watchlist-updated` has already brought the new list.
    failed = !binding.connection.toggle({ id: binding.id, title: binding.title }, WATCHLIST_BUTTON_ADDED_DETAILS).ok;
    render();
  };
  button.addEventListener('click', onClick);
  render();
  button.disabled = false;
  return () => {
    unsubscribe();
    button.removeEventListener('click', onClick);
    button.disabled = true;
  };
}
