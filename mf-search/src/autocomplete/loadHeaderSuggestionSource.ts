import type { SearchServerSettings } from '../config/searchServerSettings.js';
import type { SuggestionSource } from './suggestions.js';

/** Loads the header's suggestion source and the search client code behind it (a separate chunk). */
export function loadHeaderSuggestionSource(settings: SearchServerSettings): Promise<SuggestionSource> {
  return import('./headerSuggestionSource.js').then(({ createHeaderSuggestionSource }) => createHeaderSuggestionSource(settings));
}
