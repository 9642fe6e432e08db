import type { WatchlistShareRepository } from '../database/index.js';

/**
 * What the watchlist routes use of the database's share repository
 * (`openDatabase(...).watchlistShares`): store a list under an unguessable id, read it back.
 */
export type WatchlistShareStore = Pick<WatchlistShareRepository, 'create' | 'get'>;
