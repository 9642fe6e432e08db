/**
 * Limits of the watchlist calls. They are server policy (not specification constants), so
 * they live next to the routes that enforce them.
 */

/** Most articles one watchlist request may carry. */
export const WATCHLIST_MAX_ARTICLES = 500;
/** Largest accepted request body of the watchlist and download calls (bytes). */
export const WATCHLIST_BODY_LIMIT_BYTES = 256 * 1024;
/** Longest accepted article id (characters); real ids are short slugs. */
export const WATCHLIST_MAX_ID_LENGTH = 200;
/** Longest accepted saved title (characters). */
export const WATCHLIST_MAX_TITLE_LENGTH = 1000;
/** Related articles returned at most. */
export const RELATED_ARTICLES_MAX = 6;
