import { useEffect, useState } from 'react';
import { WATCHLIST_STORAGE_KEY, type LocalWatchlist, type PageBus } from 'contracts';
import { readWatchlist } from '../storage/watchlistStorage.js';

const EMPTY_WATCHLIST: LocalWatchlist = { articles: {} };

/**
 * The current watchlist, kept fresh from the bus (changes on this page) and from `storage`
 * events (changes in another tab). With `hydrating`, the first render shows what the server
 * rendered (an empty list: the list lives in this browser) and the stored list follows right
 * after hydration.
 */
export function useWatchlist(bus: PageBus, hydrating = false): LocalWatchlist {
  const [watchlist, setWatchlist] = useState<LocalWatchlist>(() => (hydrating ? EMPTY_WATCHLIST : readWatchlist()));
  useEffect(() => {
    if (hydrating) setWatchlist(readWatchlist());
    const offBus = bus.on('watchlist-updated', (event) => setWatchlist(event.watchlist));
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === WATCHLIST_STORAGE_KEY) setWatchlist(readWatchlist());
    };
    window.addEventListener('storage', onStorage);
    return () => {
      offBus();
      window.removeEventListener('storage', onStorage);
    };
  }, [bus]);
  return watchlist;
}
