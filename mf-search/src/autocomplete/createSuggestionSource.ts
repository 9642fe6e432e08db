import type { SearchClient } from 'instantsearch.js';
import { SUGGESTIONS_SHOWN } from 'contracts';
import type { Suggestion, SuggestionSource } from './suggestions.js';

interface RawResult {
  hits?: Array<{ objectID?: unknown; title?: unknown }>;
  facets?: Record<string, Record<string, number>>;
}

/**
 * Suggestions from the search index: one multi-search request per query, asking for the first
 * page of hits (their titles) and, for the empty query when a tag facet is given, its most
 * frequent values as tags.
 * @param hitsPerPage  Hits fetched before filtering by containment.
 * @param tagAttribute  Facet whose top values become the suggestion tags. Default none.
 */
export function createSuggestionSource(
  searchClient: SearchClient,
  indexName: string,
  hitsPerPage: number,
  tagAttribute?: string,
): SuggestionSource {
  return async (query) => {
    const params: Record<string, unknown> = { query, hitsPerPage, page: 0 };
    // Tags are shown only for the empty box: only that request pays for facet counts.
    if (tagAttribute && query.trim() === '') {
      params.facets = [tagAttribute];
      params.maxValuesPerFacet = SUGGESTIONS_SHOWN;
    }
    const response = (await searchClient.search([{ indexName, params }])) as { results: RawResult[] };
    const result = response.results[0] ?? {};
    const suggestions: Suggestion[] = (result.hits ?? []).flatMap((hit) =>
      typeof hit.title === 'string' && hit.title !== '' ? [{ objectID: String(hit.objectID), title: hit.title }] : [],
    );
    const counts = tagAttribute ? (result.facets?.[tagAttribute] ?? {}) : {};
    const tags = Object.entries(counts)
      .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))
      .slice(0, SUGGESTIONS_SHOWN)
      .map(([value]) => value);
    return { suggestions, tags };
  };
}
