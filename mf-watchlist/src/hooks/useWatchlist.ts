import { useEffect, useState } from 'react';
import { WATCHLIST_STORAGE_KEY, type LocalWatchlist, type PageBus } from 'contracts';
import { readWatchlist } from '../storage/watchlistStorage.js';

/**
 * The current watchlist, kept fresh from the bus (changes on this page) and from `storage`
 * events (changes in another tab).
 */
export function useWatchlist(bus: PageBus): LocalWatchlist {
  const [watchlist, setWatchlist] = useState<LocalWatchlist>(() => readWatchlist());
  useEffect(() => {
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
