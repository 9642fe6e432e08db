import type { LocalWatchlist } from 'contracts';

/**
 * What the watchlist routes use of the database's share repository
 * (`openDatabase(...).watchlistShares`): store a list under an unguessable id, read it back.
 */
export interface WatchlistShareStore {
  /** Stores the articles and answers the new share's unguessable id. */
  create(articles: LocalWatchlist['articles']): Promise<string>;
  /** The stored articles, or `undefined` for an unknown id. */
  get(id: string): Promise<LocalWatchlist['articles'] | undefined>;
}
