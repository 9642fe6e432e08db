import { useCallback, useEffect, useRef } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { PageBus } from 'contracts';

/**
 * Site-search tracking: after `markSubmitted(query)`, the first finished answer for that query
 * emits `search-submitted` with the query and its hit count on the bus (the shell turns it into
 * the analytics tracker's call). Empty queries are not tracked.
 * @returns markSubmitted
 */
export function useSearchSubmitted(bus: PageBus): (query: string) => void {
  const { results, status } = useInstantSearch({ catchError: true });
  const pending = useRef<string | null>(null);

  const emitIfAnswered = useCallback(() => {
    const query = pending.current;
    if (query === null || status !== 'idle' || !results) return;
    if ((results.query ?? '').trim() !== query) return;
    pending.current = null;
    bus.emit('search-submitted', { query, hitCount: results.nbHits });
  }, [bus, results, status]);

  useEffect(emitIfAnswered, [emitIfAnswered]);

  return useCallback(
    (query: string) => {
      const trimmed = query.trim();
      pending.current = trimmed === '' ? null : trimmed;
      emitIfAnswered();
    },
    [emitIfAnswered],
  );
}
