import type { SuggestionSource } from './suggestions.js';

/** A suggestion source whose code is loaded on demand. */
export interface LazySuggestionSource {
  /** Answers once the real source is loaded (the first query waits for the load). */
  source: SuggestionSource;
  /** Starts loading the real source if it is not loaded or loading yet (first interaction). */
  preload(): void;
}

/**
 * Wraps a loader so the search client code is fetched only when the visitor shows interest
 * (focus, pointer, typing), not with the page. The load runs once; a failed load is retried on
 * the next query or interaction (the failing query is rejected, so the autocomplete closes and logs it).
 */
export function createLazySuggestionSource(load: () => Promise<SuggestionSource>): LazySuggestionSource {
  let loading: Promise<SuggestionSource> | undefined;
  const loaded = (): Promise<SuggestionSource> => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  return {
    source: async (query) => (await loaded())(query),
    preload() {
      // A failed preload is reported by the query that needs it.
      loaded().catch(() => {});
    },
  };
}
