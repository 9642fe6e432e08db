/**
 * How many requests one client address may make per window on the shell's own calls (failure
 * beacons, the operators' view). Server policy, documented in the root README ("Abuse limits");
 * one place so tests and docs read the same numbers.
 */
export interface RateLimitPolicy {
  /** Requests allowed per window and key. */
  max: number;
  /** Window length in milliseconds (fixed windows). */
  windowMs: number;
}

// The team services' calls and form posts are limited by their own edge policies (`proxy/edgePolicy.ts`).
/**
 * Failure beacons per client address: a page has at most a dozen islands and the browser reports
 * each failure once, so a visitor on a broken page for a minute stays well below this.
 */
export const ISLAND_FAILURE_LIMIT: RateLimitPolicy = { max: 30, windowMs: 60 * 1000 };
/** Requests to the operators' view per client address (a monitor polling every few seconds fits). */
export const OPERATOR_LIMIT: RateLimitPolicy = { max: 60, windowMs: 60 * 1000 };
