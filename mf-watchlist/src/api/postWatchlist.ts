import { fetchWithCsrfToken, type LocalWatchlist, type WatchlistRequest } from 'contracts';

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
 * The request both watchlist calls share (spec point 7): POST `{ storedWatchlist }` as JSON with
 * `Accept` and `Content-Type` JSON and the page's CSRF token (contracts `fetchWithCsrfToken`:
 * fetched once per page, again only after a 403). Answers the raw response; callers decide what a
 * failure is.
 */
export async function postWatchlist({ fetch: fetchFn, csrfTokenUrl, url, watchlist }: WatchlistPostInput): Promise<Response> {
  const body: WatchlistRequest = { storedWatchlist: watchlist };
  return fetchWithCsrfToken(fetchFn, csrfTokenUrl, url, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}
