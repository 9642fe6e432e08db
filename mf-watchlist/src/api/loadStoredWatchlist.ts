import type { StoredWatchlist } from 'contracts';
import { postWatchlist, type WatchlistPostInput } from './postWatchlist.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Loads the server's view of the local watchlist: teasers, related articles, sharing URL.
 * Rejects on a non-OK status, an `{ error }` answer or an answer of the wrong shape.
 */
export async function loadStoredWatchlist(input: WatchlistPostInput): Promise<StoredWatchlist> {
  const response = await postWatchlist(input);
  const body: unknown = await response.json().catch(() => undefined);
  if (isRecord(body) && typeof body.error === 'string') throw new Error(`Watchlist call failed: ${body.error}`);
  if (!response.ok) throw new Error(`Watchlist call failed with status ${response.status}`);
  const stored = isRecord(body) ? body.storedWatchlist : undefined;
  if (
    !isRecord(stored) ||
    !isRecord(stored.articles) ||
    !Array.isArray(stored.relatedArticles) ||
    typeof stored.sharingUrl !== 'string'
  ) {
    throw new Error('Watchlist call answered an unexpected shape');
  }
  return stored as unknown as StoredWatchlist;
}
