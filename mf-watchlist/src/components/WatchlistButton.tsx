import { useState } from 'react';
import { useIslandReady } from '@khs/react-island/ready';
import type { PageBus } from 'contracts';
import { isSaved } from '../connectors/connectWatchlist.js';
import { WATCHLIST_BUTTON_ADDED_DETAILS } from '../connectors/watchlistButtonEvent.js';
import { useWatchlist } from '../hooks/useWatchlist.js';
import '../styles/watchlist.css';

export interface WatchlistButtonProps {
  /** Article id (the key in the local watchlist). */
  id: string;
  /** Article title saved with the entry. */
  title: string;
  bus: PageBus;
  /** Label while the article is not saved. */
  addLabel: string;
  /** Label while the article is saved. */
  removeLabel: string;
  /** Text shown when local storage refused the change. */
  failureLabel: string;
  /** Hydrating server HTML (not saved): the stored state follows after hydration. Default false. */
  hydrating?: boolean;
}

/**
 * Toggles one article on the watchlist; `aria-pressed` tells whether it is saved. The markup of the
 * `mf-watchlist/WatchlistButton` island (server-rendered; `bindWatchlistButton` makes it work in
 * the browser without React, and a test holds both to the same markup).
 */
export function WatchlistButton({ id, title, bus, addLabel, removeLabel, failureLabel, hydrating = false }: WatchlistButtonProps) {
  const { watchlist, connection } = useWatchlist(bus, hydrating);
  const [failed, setFailed] = useState(false);
  const ready = useIslandReady();
  const saved = isSaved(watchlist, id);

  const toggle = () => setFailed(!connection.toggle({ id, title }, WATCHLIST_BUTTON_ADDED_DETAILS).ok);

  return (
    <span className="khs-watchlist-button">
      <button
        type="button"
        className="khs-watchlist-button__toggle"
        aria-pressed={saved}
        data-saved={saved}
        disabled={!ready}
        onClick={toggle}
      >
        <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 24 24">
          <path d="M6 3h12v18l-6-4-6 4z" fill={saved ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" />
        </svg>
        <span>{saved ? removeLabel : addLabel}</span>
      </button>
      <span role="status" className="khs-watchlist-button__status">
        {failed ? failureLabel : ''}
      </span>
    </span>
  );
}
