import { isEqual } from 'instantsearch.js/es/lib/utils/isEqual.js';
import type { DisposableHitsCache } from './hitListEnvironment.js';

/** What an infinite-hits cache holds: the search state (without page) and the hits per page. */
export interface HitsCacheEntry {
  state: Record<string, unknown>;
  hits: Record<number, unknown[]>;
}

/** A search state as plain JSON, without the page (the key of an infinite-hits cache). */
export function stateWithoutPage(state: unknown): Record<string, unknown> {
  const { page: _page, ...rest } = JSON.parse(JSON.stringify(state ?? {})) as Record<string, unknown>;
  return rest;
}

/**
 * An in-memory infinite-hits cache: the server renders pages 1…N into one, so the address
 * `?page=2` shows pages 1–2, and hands its entry to the browser, which starts from it.
 */
export function createMemoryHitsCache(initial: HitsCacheEntry | null = null): DisposableHitsCache & { entry(): HitsCacheEntry | null } {
  let entry = initial;
  return {
    entry: () => entry,
    dispose() {},
    read({ state }) {
      return entry && isEqual(entry.state, stateWithoutPage(state)) ? (entry.hits as never) : null;
    },
    write({ state, hits }) {
      entry = { state: stateWithoutPage(state), hits: hits as Record<number, unknown[]> };
    },
  };
}
