import { useEffect } from 'react';
import { useInstantSearch } from 'react-instantsearch';

/** Search status of specification point 4. */
export type SearchStatus = 'idle' | 'loading' | 'stalled' | 'error';

/**
 * The list's search status. "stalled" comes after the InstantSearch root's `stalledSearchDelay`
 * (set to `LIST_STALLED_DELAY_MS`). A search error sets "error" and is logged; nothing is shown
 * to the visitor and the rest of the page keeps working (errors are caught, never rethrown).
 */
export function useSearchStatus(): SearchStatus {
  const { status, error } = useInstantSearch({ catchError: true });
  useEffect(() => {
    if (error) console.error('[mf-search] the search failed', error);
  }, [error]);
  return status;
}
