import { postWatchlist, type WatchlistPostInput } from './postWatchlist.js';

/** Message of the error a non-OK download answer raises (spec point 8). */
export const NETWORK_RESPONSE_ERROR = 'Network response error';

/** Fetches the watchlist PDF; a non-OK answer raises `Network response error`. */
export async function downloadWatchlistPdf(input: WatchlistPostInput): Promise<Blob> {
  const response = await postWatchlist(input);
  if (!response.ok) throw new Error(NETWORK_RESPONSE_ERROR);
  return response.blob();
}
