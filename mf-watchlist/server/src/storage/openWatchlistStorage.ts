import { openServiceStorage, type ServiceStorage } from '@khs/team-service';
import { postgresWatchlistShareRepository } from './postgresWatchlistShareRepository.js';
import { sqliteWatchlistShareRepository } from './sqliteWatchlistShareRepository.js';
import { WATCHLIST_MIGRATIONS } from './watchlistMigrations.js';
import type { WatchlistShareRepository } from './watchlistShareRepository.js';

/** The service's name: its SQLite file `watchlist.sqlite`, its PostgreSQL schema `watchlist`. */
export const WATCHLIST_SERVICE_NAME = 'watchlist';

/** Where the watchlist service keeps its shares. */
export interface WatchlistStorageOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema; default `watchlist`. */
  schema?: string | undefined;
}

/** The watchlist service's open storage. */
export type WatchlistStorage = ServiceStorage<{ shares: WatchlistShareRepository }>;

/** Opens and migrates the watchlist storage: `<dataDir>/watchlist.sqlite`, or the `watchlist` schema with `databaseUrl`. */
export async function openWatchlistStorage(options: WatchlistStorageOptions): Promise<WatchlistStorage> {
  return openServiceStorage({ name: WATCHLIST_SERVICE_NAME, migrations: WATCHLIST_MIGRATIONS, ...options }, {
    sqlite: (db) => ({ shares: sqliteWatchlistShareRepository(db) }),
    postgres: (pool) => ({ shares: postgresWatchlistShareRepository(pool) }),
  });
}
