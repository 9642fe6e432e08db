import { SUGGESTIONS_SHOWN, type SearchSuggestion } from 'contracts';

/** An autocomplete suggestion: an article title, with the hit's id for insights events. */
export interface Suggestion extends SearchSuggestion {
  objectID: string;
}

/** What the suggestion source answers for one query. */
export interface SuggestionAnswer {
  /** Suggestions for the query (unfiltered; see `filterSuggestions`). */
  suggestions: Suggestion[];
  /** Suggestion tags for an empty query (most frequent topics). */
  tags: string[];
}

/** Fetches suggestions for a query (one search request). */
export type SuggestionSource = (query: string) => Promise<SuggestionAnswer>;

/**
 * Keeps the suggestions whose title contains the query case-insensitively (specification
 * point 5), at most `SUGGESTIONS_SHOWN`. When none contains it (the server found the articles
 * through typo tolerance, e.g. "leadrship"), nothing is filtered: the server's suggestions are
 * shown as they are, so a typo still gets suggestions.
 */
export function filterSuggestions(suggestions: Suggestion[], query: string): Suggestion[] {
  const needle = query.trim().toLowerCase();
  const containing = needle === '' ? suggestions : suggestions.filter((s) => s.title.toLowerCase().includes(needle));
  return (containing.length > 0 ? containing : suggestions).slice(0, SUGGESTIONS_SHOWN);
}
