import { useCallback, useState } from 'react';

/** The results-hidden flag of the search context (specification point 4). */
export interface ResultsHiddenFlag {
  resultsHidden: boolean;
  /** Flips the flag. */
  toggleResultsHidden(): void;
  /** Sets the flag explicitly. */
  setResultsHidden(hidden: boolean): void;
}

/**
 * Holds the results-hidden flag, which can be toggled or set.
 * @param initial  Starting value. Default `false`.
 */
export function useResultsHidden(initial = false): ResultsHiddenFlag {
  const [resultsHidden, setResultsHidden] = useState(initial);
  const toggleResultsHidden = useCallback(() => setResultsHidden((hidden) => !hidden), []);
  return { resultsHidden, toggleResultsHidden, setResultsHidden };
}
