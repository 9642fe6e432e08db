import { useCallback, useEffect, useRef } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { SubmittedSearch } from './siteSearchReport.js';

/**
 * Site-search tracking: after `markSubmitted(query)`, the first finished answer for that query
 * (an answer of the search server, not InstantSearch's placeholder before it) is reported once with its hit count and applied filters (`report`, normally
 * `reportSiteSearch`). Empty queries are not tracked.
 * @returns markSubmitted
 */
export function useSearchSubmitted(report: (search: SubmittedSearch) => void): (query: string) => void {
  const { results, status, indexUiState } = useInstantSearch({ catchError: true });
  const pending = useRef<string | null>(null);

  const emitIfAnswered = useCallback(() => {
    const query = pending.current;
    // Before its first answer InstantSearch hands out a placeholder with the state's query and no
    // hits (`__isArtificial`), and its status is already 'idle': a page opened at `?q=` without the
    // server's answer would report 0 hits (a busy server leaves the list to the browser).
    if (query === null || status !== 'idle' || !results || (results as { __isArtificial?: boolean }).__isArtificial) return;
    if ((results.query ?? '').trim() !== query) return;
    pending.current = null;
    report({ query, hitCount: results.nbHits, filters: indexUiState.refinementList ?? {}, objectIds: results.hits.map((hit) => hit.objectID) });
  }, [report, results, status, indexUiState]);

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
