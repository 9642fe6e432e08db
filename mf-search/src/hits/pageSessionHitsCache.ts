import type { InfiniteHitsCache } from 'instantsearch.js/es/connectors/infinite-hits/connectInfiniteHits.js';
import { isEqual } from 'instantsearch.js/es/lib/utils/isEqual.js';
import { stateWithoutPage as withoutPage, type HitsCacheEntry } from './memoryHitsCache.js';

/** Session storage key of the loaded pages. */
export const HITS_CACHE_STORAGE_KEY = 'mf-search:infinite-hits';

/**
 * The loaded pages of the infinite hit list, kept in memory while the page lives and saved to
 * session storage only when the page is left or hidden, so reload, back and forward restore every
 * loaded page. InstantSearch's own session cache serialises all loaded hits on every answer; this
 * one does that once per page visit.
 * @param seed  Pages the server rendered into this page (null: none): given, it replaces what the
 *   session kept, so hydration sees exactly the server's list.
 */
export function createPageSessionHitsCache(win: Window = window, seed?: HitsCacheEntry | null): InfiniteHitsCache & { dispose(): void } {
  let entry: HitsCacheEntry | null = seed ?? null;
  if (seed === undefined) {
    try {
      entry = JSON.parse(win.sessionStorage.getItem(HITS_CACHE_STORAGE_KEY) ?? 'null') as HitsCacheEntry | null;
    } catch {
      entry = null;
    }
  }
  const save = () => {
    try {
      if (entry) win.sessionStorage.setItem(HITS_CACHE_STORAGE_KEY, JSON.stringify(entry));
    } catch {
      // Storage full or blocked: the list simply starts at page one next time.
    }
  };
  const onVisibilityChange = () => {
    if (win.document.visibilityState === 'hidden') save();
  };
  win.addEventListener('pagehide', save);
  win.document.addEventListener('visibilitychange', onVisibilityChange);
  return {
    /** Saves and stops listening (the list unmounted). */
    dispose() {
      save();
      win.removeEventListener('pagehide', save);
      win.document.removeEventListener('visibilitychange', onVisibilityChange);
    },
    read({ state }) {
      return entry && isEqual(entry.state, withoutPage(state)) ? (entry.hits as never) : null;
    },
    write({ state, hits }) {
      entry = { state: withoutPage(state), hits: hits as Record<number, unknown[]> };
    },
  };
}
