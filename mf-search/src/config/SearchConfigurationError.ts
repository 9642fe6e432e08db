/** Why a search island cannot start (specification point 8, "Configuration errors"). */
export type SearchConfigurationErrorCode =
  | 'missing-search-client'
  | 'missing-index-name'
  | 'missing-facet-attribute'
  | 'invalid-facet-operator'
  | 'invalid-show-more-limit'
  | 'conflicting-attribute-lists';

/**
 * A configuration the search cannot work with. Thrown while an island mounts; the island then
 * logs it and keeps its server fallback (the message is never shown to visitors).
 */
export class SearchConfigurationError extends Error {
  override readonly name = 'SearchConfigurationError';

  constructor(
    /** Machine-readable reason. */
    readonly code: SearchConfigurationErrorCode,
    message: string,
  ) {
    super(message);
  }
}
