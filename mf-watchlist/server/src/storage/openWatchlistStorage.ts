import { openServiceDatabase, type ServiceDatabase } from '@khs/team-service';
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
export interface WatchlistStorage {
  shares: WatchlistShareRepository;
  dialect: ServiceDatabase['dialect'];
  /** Throws when the database cannot be reached (for `/health`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Opens and migrates the watchlist storage: `<dataDir>/watchlist.sqlite`, or the `watchlist` schema with `databaseUrl`. */
export async function openWatchlistStorage(options: WatchlistStorageOptions): Promise<WatchlistStorage> {
  const database = await openServiceDatabase({ name: WATCHLIST_SERVICE_NAME, migrations: WATCHLIST_MIGRATIONS, ...options });
  if (database.dialect === 'sqlite') {
    return {
      dialect: 'sqlite',
      shares: sqliteWatchlistShareRepository(database.sqlite),
      check: async () => void database.sqlite.prepare('SELECT 1').get(),
      close: () => database.close(),
    };
  }
  return {
    dialect: 'postgres',
    shares: postgresWatchlistShareRepository(database.pool),
    check: async () => void (await database.pool.query('SELECT 1')),
    close: () => database.close(),
  };
}
