import type { InsightsClient } from 'search-insights';
import type { Suggestion } from '../autocomplete/suggestions.js';

/** Insights events of the autocomplete; no-ops while there is no consented client. */
export interface AutocompleteInsights {
  /** Suggestions stayed on screen (debounced by the autocomplete). */
  viewed(suggestions: Suggestion[]): void;
  /** A suggestion was chosen. */
  selected(suggestion: Suggestion): void;
}

/** Builds the autocomplete's view and click events for `index`. */
export function autocompleteInsights(client: InsightsClient | null, index: string): AutocompleteInsights {
  return {
    viewed(suggestions) {
      if (!client || suggestions.length === 0) return;
      client('viewedObjectIDs', { eventName: 'Suggestions Viewed', index, objectIDs: suggestions.map((s) => s.objectID) });
    },
    selected(suggestion) {
      client?.('clickedObjectIDs', { eventName: 'Suggestion Selected', index, objectIDs: [suggestion.objectID] });
    },
  };
}
