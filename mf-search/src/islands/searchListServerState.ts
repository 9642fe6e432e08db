import type { InstantSearchServerState } from 'react-instantsearch';
import type { HitsCacheEntry } from '../hits/memoryHitsCache.js';

/** What the server render of the list hands the browser: nothing is searched again on hydration. */
export interface SearchListServerState {
  /** InstantSearch's answers for the address's state, as `getServerState` builds them (`islands/listSearchTemplates.ts` builds the same without its first pass). */
  serverState: InstantSearchServerState;
  /** Pages 1…N of the infinite list (the address's `page=N` shows them all). */
  hitsCache: HitsCacheEntry | null;
  /** Suggestion tags of the empty box. */
  tags: string[];
  /**
   * The address this list was rendered for (`listAddress`): the bound list compares it with the
   * window's, which back/forward may have moved before the list's script ran. Absent from older renders.
   */
  address?: string;
  /** The index version the answers are of (`config/indexVersion.ts`): hydration reuses them only while it is current. Absent from older renders. */
  indexVersion?: string;
}

export function isSearchListServerState(value: unknown): value is SearchListServerState {
  const candidate = value as SearchListServerState | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.serverState === 'object' && Array.isArray(candidate.tags);
}
