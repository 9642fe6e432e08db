// Loaded as its own chunk by the header search on the first interaction: it pulls in the
// typesense-instantsearch-adapter (with typesense and its HTTP client), which most pages never need.
import { createSuggestionClient } from '../config/createSearchClient.js';
import type { SearchServerSettings } from '../config/searchServerSettings.js';
import { createSuggestionSource } from './createSuggestionSource.js';
import type { SuggestionSource } from './suggestions.js';

/** The header's suggestion source: titles only, `hitsPerPage` of them before filtering, no tags. */
export function createHeaderSuggestionSource(settings: SearchServerSettings): SuggestionSource {
  return createSuggestionSource(createSuggestionClient(settings), settings.indexName, settings.hitsPerPage);
}
