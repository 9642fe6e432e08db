/** Session-storage key of the browser's last search (this tab's session only). */
export const LAST_SEARCH_STORAGE_KEY = 'khs-search:last-search';
/** A watchlist save counts as that search's conversion this long after it (30 minutes). */
export const CONVERSION_WINDOW_MS = 30 * 60 * 1000;
/** Most hit ids kept (the list's first pages; a save further down is rare). */
export const MAX_REMEMBERED_HITS = 200;

/** The last search this browser tab submitted: its random query id and the hits it showed. */
export interface LastSearch {
  queryId: string;
  objectIds: string[];
  /** When it was submitted (ms since the epoch). */
  at: number;
}

/** A fresh random query id for one submitted search (never reused, names no visitor). */
export function newQueryId(): string {
  return `s-${crypto.randomUUID()}`;
}

function sessionStore(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage blocked: no conversions, nothing else breaks
  }
}

/** Keeps `search` as the last one (replacing the one before). */
export function rememberLastSearch(search: LastSearch, storage: Storage | undefined = sessionStore()): void {
  try {
    storage?.setItem(LAST_SEARCH_STORAGE_KEY, JSON.stringify({ ...search, objectIds: search.objectIds.slice(0, MAX_REMEMBERED_HITS) }));
  } catch {
    // quota or blocked storage: the search is simply not remembered
  }
}

/** Adds hits the same search showed later (more pages loaded). */
export function rememberMoreHits(queryId: string, objectIds: readonly string[], storage: Storage | undefined = sessionStore()): void {
  const last = readStored(storage);
  if (!last || last.queryId !== queryId) return;
  rememberLastSearch({ ...last, objectIds: [...new Set([...last.objectIds, ...objectIds])] }, storage);
}

function readStored(storage: Storage | undefined): LastSearch | undefined {
  try {
    const value = JSON.parse(storage?.getItem(LAST_SEARCH_STORAGE_KEY) ?? 'null') as Partial<LastSearch> | null;
    if (!value || typeof value.queryId !== 'string' || !Array.isArray(value.objectIds) || typeof value.at !== 'number') return undefined;
    return { queryId: value.queryId, objectIds: value.objectIds.filter((id): id is string => typeof id === 'string'), at: value.at };
  } catch {
    return undefined;
  }
}

/**
 * The search a save of `objectId` converts: the tab's last search, when it is at most
 * `CONVERSION_WINDOW_MS` old and showed that article; otherwise `undefined`.
 */
export function searchConvertedBy(objectId: string, now: number = Date.now(), storage: Storage | undefined = sessionStore()): LastSearch | undefined {
  const last = readStored(storage);
  if (!last || now - last.at > CONVERSION_WINDOW_MS || now < last.at) return undefined;
  return last.objectIds.includes(objectId) ? last : undefined;
}
