import { useEffect, useMemo, useState } from 'react';
import type { LocalWatchlist, PageBus } from 'contracts';
import { connectWatchlist, type WatchlistConnection } from '../connectors/connectWatchlist.js';

const EMPTY_WATCHLIST: LocalWatchlist = { articles: {} };

/**
 * The current watchlist and the connection to it (`connectWatchlist`: the same logic the
 * framework-free islands use), kept fresh from the bus (changes on this page) and from `storage`
 * events (changes in another tab). With `hydrating`, the first render shows what the server
 * rendered (an empty list: the list lives in this browser) and the stored list follows right
 * after hydration.
 */
export function useWatchlist(bus: PageBus, hydrating = false): { watchlist: LocalWatchlist; connection: WatchlistConnection } {
  const connection = useMemo(() => connectWatchlist(bus), [bus]);
  const [watchlist, setWatchlist] = useState<LocalWatchlist>(() => (hydrating ? EMPTY_WATCHLIST : connection.read()));
  useEffect(() => {
    if (hydrating) setWatchlist(connection.read());
    return connection.subscribe(setWatchlist);
  }, [connection, hydrating]);
  return { watchlist, connection };
}
