import { WATCHLIST_STORAGE_KEY, type LocalWatchlist, type PageBus, type SiteEvents } from 'contracts';
import { browserStorage, readWatchlist, toggleWatchlistArticle, watchlistCount } from '../storage/watchlistStorage.js';

/** What a toggle adds to the `watchlist-added` event besides id, title and added (e.g. its `source`). */
export type WatchlistAddedDetails = Omit<SiteEvents['watchlist-added'], 'id' | 'title' | 'added'>;

/** Outcome of a toggle: the new state, or that storage refused it (the list stays as it was). */
export type WatchlistToggleOutcome = { ok: true; added: boolean; watchlist: LocalWatchlist } | { ok: false };

/**
 * The watchlist as one page sees it, without a framework: the logic behind the watchlist controls
 * (the React hook `useWatchlist` and the DOM bindings of the islands both sit on it).
 */
export interface WatchlistConnection {
  /** The stored list, read now. */
  read(): LocalWatchlist;
  /**
   * Calls `listener` with each new list: changes on this page (the bus's `watchlist-updated`) and
   * in other tabs (`storage` events). Returns the function that removes both listeners.
   */
  subscribe(listener: (watchlist: LocalWatchlist) => void): () => void;
  /**
   * Adds the article or removes it, then tells the page: `watchlist-updated` (the new list and
   * count; every control follows it, the toggling one included) and `watchlist-added` (also on
   * removal, with `details`). When storage refuses, nothing is emitted and the failure is logged.
   */
  toggle(article: { id: string; title: string }, details: WatchlistAddedDetails): WatchlistToggleOutcome;
}

/** Where `storage` events of other tabs arrive (a window). */
export interface StorageEventSource {
  addEventListener(type: 'storage', listener: (event: StorageEvent) => void): void;
  removeEventListener(type: 'storage', listener: (event: StorageEvent) => void): void;
}

export interface ConnectWatchlistOptions {
  /** Where `storage` events of other tabs arrive. Default the global `window` (none on a server). */
  view?: StorageEventSource | null;
  /** Storage the list lives in. Default the browser's local storage. */
  storage?: () => Storage | null;
  /** Where a refused write is logged. Default `console`. */
  logger?: Pick<Console, 'error'>;
}

/** Connects to the page's watchlist through `bus` (the page's one bus). */
export function connectWatchlist(bus: PageBus, options: ConnectWatchlistOptions = {}): WatchlistConnection {
  const view: StorageEventSource | null = options.view !== undefined ? options.view : typeof window === 'undefined' ? null : window;
  const storage = options.storage ?? browserStorage;
  const logger = options.logger ?? console;
  return {
    read: () => readWatchlist(storage()),
    subscribe(listener) {
      const offBus = bus.on('watchlist-updated', (event) => listener(event.watchlist));
      const onStorage = (event: StorageEvent) => {
        // `key` null: another tab cleared the storage.
        if (event.key === null || event.key === WATCHLIST_STORAGE_KEY) listener(readWatchlist(storage()));
      };
      view?.addEventListener('storage', onStorage);
      return () => {
        offBus();
        view?.removeEventListener('storage', onStorage);
      };
    },
    toggle({ id, title }, details) {
      const result = toggleWatchlistArticle(id, title, storage());
      if (!result.ok) {
        logger.error('[mf-watchlist] the watchlist could not be saved', result.error);
        return { ok: false };
      }
      bus.emit('watchlist-updated', { watchlist: result.watchlist, count: watchlistCount(result.watchlist) });
      bus.emit('watchlist-added', { id, title, added: result.added, ...details });
      return { ok: true, added: result.added, watchlist: result.watchlist };
    },
  };
}

/** Whether article `id` is on `watchlist` (what a watchlist button shows). */
export function isSaved(watchlist: LocalWatchlist, id: string): boolean {
  return Object.hasOwn(watchlist.articles, id);
}
