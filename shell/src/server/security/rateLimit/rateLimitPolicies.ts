/**
 * How many requests one client address may make per window on the shell's own calls (failure
 * beacons, the operators' view). Server policy, documented in shell/README.md ("Abuse limits");
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
 * Page reports (views and failures, usually one beacon per page view) per client address: a reader
 * opens far fewer than two pages a second, and a few readers behind one address (an office, a
 * carrier's NAT) must not lose the views a canary is judged by. Was 30 when only failures were sent.
 */
export const ISLAND_FAILURE_LIMIT: RateLimitPolicy = { max: 120, windowMs: 60 * 1000 };
/** Requests to the operators' view per client address (a monitor polling every few seconds fits). */
export const OPERATOR_LIMIT: RateLimitPolicy = { max: 60, windowMs: 60 * 1000 };
