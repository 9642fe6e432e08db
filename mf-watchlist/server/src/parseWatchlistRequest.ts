import type { LocalWatchlist } from 'contracts';
import { WATCHLIST_MAX_ARTICLES, WATCHLIST_MAX_ID_LENGTH, WATCHLIST_MAX_TITLE_LENGTH } from './limits.js';
import { WatchlistRequestError } from './watchlistRequestError.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (message: string) => new WatchlistRequestError(400, message, 'INVALID_WATCHLIST');

/**
 * Validates the body of the watchlist and download calls: `{ storedWatchlist: { articles:
 * { [id]: { title } } } }`. Unlike the browser's lenient reader this one is strict: a request
 * of the wrong shape is refused (400), too many articles too (422), so nothing half-valid is
 * ever stored.
 */
export function parseWatchlistRequest(body: unknown): LocalWatchlist {
  if (!isRecord(body)) throw invalid('The body must be a JSON object');
  const stored = body.storedWatchlist;
  if (!isRecord(stored)) throw invalid('"storedWatchlist" must be an object');
  const articles = stored.articles;
  if (!isRecord(articles)) throw invalid('"storedWatchlist.articles" must be an object of id to { title }');

  const ids = Object.keys(articles);
  if (ids.length > WATCHLIST_MAX_ARTICLES) {
    throw new WatchlistRequestError(
      422,
      `A watchlist holds at most ${WATCHLIST_MAX_ARTICLES} articles, got ${ids.length}`,
      'WATCHLIST_TOO_LARGE',
    );
  }
  const result: LocalWatchlist['articles'] = {};
  for (const id of ids) {
    if (id.length === 0 || id.length > WATCHLIST_MAX_ID_LENGTH) {
      throw invalid(`Article ids must have 1 to ${WATCHLIST_MAX_ID_LENGTH} characters`);
    }
    const entry = articles[id];
    if (!isRecord(entry) || typeof entry.title !== 'string' || entry.title.length > WATCHLIST_MAX_TITLE_LENGTH) {
      throw invalid(`Article "${id.slice(0, 40)}" must be { title: string } (at most ${WATCHLIST_MAX_TITLE_LENGTH} characters)`);
    }
    result[id] = { title: entry.title };
  }
  return { articles: result };
}
