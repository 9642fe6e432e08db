/** What the results area shows. */
export type ResultsVisibility =
  /** The hit list. */
  | 'results'
  /** Nothing: the flag is set, or hide-results is on and no query exists yet. */
  | 'hidden'
  /** A finished search found nothing: the "no results" message. */
  | 'no-hits'
  /** The first answer is still on its way: nothing yet. */
  | 'pending';

export interface ResultsVisibilityInput {
  /** The results-hidden flag. */
  resultsHidden: boolean;
  /** The hide-results option: keep results hidden until a query exists. */
  hideResults: boolean;
  /** Current query. */
  query: string;
  /** Hits of the last answer; `undefined` before the first answer. */
  nbHits: number | undefined;
}

/**
 * Decides the results area (specification point 2): hidden when the flag is set, when
 * hide-results is on and there is no query, or when there are no hits. For "no hits" the visitor
 * sees a short "no results" message instead of an empty page, so they know the search ran.
 */
export function resultsVisibility({ resultsHidden, hideResults, query, nbHits }: ResultsVisibilityInput): ResultsVisibility {
  if (resultsHidden) return 'hidden';
  if (hideResults && query.trim() === '') return 'hidden';
  if (nbHits === undefined) return 'pending';
  return nbHits === 0 ? 'no-hits' : 'results';
}
