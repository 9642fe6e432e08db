/**
 * Limits of the watchlist calls. They are server policy (not specification constants), so
 * they live next to the routes that enforce them.
 */

/** Most articles one watchlist request may carry. */
export const WATCHLIST_MAX_ARTICLES = 500;
// The largest request bodies are declared in the edge policy (`edgePolicy.ts`).
/** Longest accepted article id (characters); real ids are short slugs. */
export const WATCHLIST_MAX_ID_LENGTH = 200;
/** Longest accepted saved title (characters). */
export const WATCHLIST_MAX_TITLE_LENGTH = 1000;
/** Related articles returned at most. */
export const RELATED_ARTICLES_MAX = 6;

/**
 * How many new share rows (distinct lists: an equal list keeps its row) one creator may add per
 * window: per visitor (the id the edge names from the visitor's cookie) and per client address (an
 * office behind one address shares it). Beyond it the call still answers the list, without a new
 * sharing URL. A visitor reorders or edits a list a few dozen times a day at most; a script that
 * sends one list after another stops here (the edge also rate-limits the call).
 */
export const SHARE_BOUND = { windowMs: 24 * 60 * 60 * 1000, perVisitor: 50, perAddress: 200 } as const;
