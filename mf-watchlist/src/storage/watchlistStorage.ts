import { WATCHLIST_STORAGE_KEY, readLocalWatchlist, type LocalWatchlist } from 'contracts';

/** Storage the watchlist lives in; `null` when the browser has none (privacy mode, policy). */
export function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The visitor's watchlist. Corrupt or foreign data is treated as empty and the stored value is
 * repaired, so a bad write elsewhere never breaks the page.
 */
export function readWatchlist(storage: Storage | null = browserStorage()): LocalWatchlist {
  if (!storage) return { articles: {} };
  let raw: string | null;
  try {
    raw = storage.getItem(WATCHLIST_STORAGE_KEY);
  } catch {
    return { articles: {} };
  }
  if (raw === null) return { articles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const { watchlist, repaired } = readLocalWatchlist(parsed);
  if (repaired || parsed === undefined) {
    try {
      storage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify(watchlist));
    } catch {
      // Repair is best effort: reading still works from the cleaned copy.
    }
  }
  return watchlist;
}

export type ToggleResult =
  | { ok: true; added: boolean; watchlist: LocalWatchlist }
  | { ok: false; error: Error };

/**
 * Adds the article (with its title) or removes it. When storage is full or unavailable the
 * stored list stays as it was and the failure is returned, never thrown.
 */
export function toggleWatchlistArticle(
  id: string,
  title: string,
  storage: Storage | null = browserStorage(),
): ToggleResult {
  if (!storage) return { ok: false, error: new Error('Local storage is not available') };
  const current = readWatchlist(storage);
  const added = !(id in current.articles);
  const articles = { ...current.articles };
  if (added) articles[id] = { title };
  else delete articles[id];
  const watchlist: LocalWatchlist = { articles };
  try {
    storage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify(watchlist));
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
  return { ok: true, added, watchlist };
}

/** Number of saved articles. */
export function watchlistCount(watchlist: LocalWatchlist): number {
  return Object.keys(watchlist.articles).length;
}
