import type { LocalWatchlist, WatchlistRequest } from 'contracts';
import { fetchCsrfToken } from './fetchCsrfToken.js';

export interface WatchlistPostInput {
  fetch: typeof fetch;
  /** `calls.csrfToken` of the page config. */
  csrfTokenUrl: string;
  /** `calls.watchlist` or `calls.download`. */
  url: string;
  /** The local watchlist sent as `{ storedWatchlist }`. */
  watchlist: LocalWatchlist;
}

/**
 * The request both watchlist calls share (spec point 7): fetch a CSRF token, then POST
 * `{ storedWatchlist }` as JSON with `Accept` and `Content-Type` JSON and `X-CSRF-Token`.
 * Answers the raw response; callers decide what a failure is.
 */
export async function postWatchlist({ fetch: fetchFn, csrfTokenUrl, url, watchlist }: WatchlistPostInput): Promise<Response> {
  const token = await fetchCsrfToken(fetchFn, csrfTokenUrl);
  const body: WatchlistRequest = { storedWatchlist: watchlist };
  return fetchFn(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-Token': token },
    body: JSON.stringify(body),
  });
}
