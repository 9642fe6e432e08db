import type { PageBus } from 'contracts';
import { useWatchlist } from '../hooks/useWatchlist.js';
import { watchlistCount } from '../storage/watchlistStorage.js';
import '../styles/watchlist.css';

export interface WatchlistLinkProps {
  bus: PageBus;
  /** URL of the watchlist page. */
  href: string;
  /** Visible link text, e.g. "Watchlist". */
  label: string;
  /** Hydrating server HTML (count 0): the stored count follows after hydration. Default false. */
  hydrating?: boolean;
}

/**
 * Header link to the watchlist page with the number of saved articles as a badge. The markup of
 * the `mf-watchlist/WatchlistLink` island (server-rendered; `bindWatchlistLink` keeps it current
 * in the browser without React, and a test holds both to the same markup).
 */
export function WatchlistLink({ bus, href, label, hydrating = false }: WatchlistLinkProps) {
  const count = watchlistCount(useWatchlist(bus, hydrating).watchlist);
  return (
    <a className="khs-watchlist-link" href={href}>
      <span>{label}</span>
      <span className="khs-watchlist-link__badge" data-count={count} aria-hidden="true">
        {count}
      </span>
      <span className="khs-watchlist-visually-hidden">{` (${count})`}</span>
    </a>
  );
}
