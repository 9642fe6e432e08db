/**
 * How many requests one client address may make per window on the product calls that store
 * something an anonymous visitor sends. Server policy, documented in the shell README
 * ("Abuse limits"); one place so tests and docs read the same numbers.
 */
export interface RateLimitPolicy {
  /** Requests allowed per window and key. */
  max: number;
  /** Window length in milliseconds (fixed windows). */
  windowMs: number;
}

/**
 * Survey submissions per client address and survey: an office behind one NAT address can
 * still vote together, a script that throws its cookies away gets at most this many votes
 * counted per hour.
 */
export const SURVEY_VOTE_LIMIT: RateLimitPolicy = { max: 20, windowMs: 60 * 60 * 1000 };
/** Insights collector requests per client address (a search session sends a few per minute). */
export const INSIGHTS_LIMIT: RateLimitPolicy = { max: 60, windowMs: 60 * 1000 };
/**
 * Watchlist calls per client address (each may store a share link): the watchlist screen sends one
 * per visit and per change, so a visitor reordering a long list stays well below; a script sending
 * list after list is stopped here (and by the watchlist service's bound on new shares).
 */
export const WATCHLIST_LIMIT: RateLimitPolicy = { max: 60, windowMs: 60 * 1000 };
/** PDF downloads per client address (each renders a PDF: the costliest call). */
export const WATCHLIST_PDF_LIMIT: RateLimitPolicy = { max: 20, windowMs: 60 * 1000 };
/** Contact form posts per client address (a visitor correcting a form a few times included). */
export const CONTACT_LIMIT: RateLimitPolicy = { max: 10, windowMs: 10 * 60 * 1000 };
/**
 * Failure beacons per client address: a page has at most a dozen islands and the browser reports
 * each failure once, so a visitor on a broken page for a minute stays well below this.
 */
export const ISLAND_FAILURE_LIMIT: RateLimitPolicy = { max: 30, windowMs: 60 * 1000 };
/** Requests to the operators' view per client address (a monitor polling every few seconds fits). */
export const OPERATOR_LIMIT: RateLimitPolicy = { max: 60, windowMs: 60 * 1000 };
