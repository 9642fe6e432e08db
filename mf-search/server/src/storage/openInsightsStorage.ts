import { openServiceDatabase, type ServiceDatabase } from '@khs/team-service';
import type { InsightsEventRepository } from './insightsEventRepository.js';
import { INSIGHTS_MIGRATIONS } from './insightsMigrations.js';
import { postgresInsightsEventRepository } from './postgresInsightsEventRepository.js';
import { sqliteInsightsEventRepository } from './sqliteInsightsEventRepository.js';

/** The service's name: its SQLite file `insights.sqlite`, its PostgreSQL schema `insights`. */
export const INSIGHTS_SERVICE_NAME = 'insights';

/** Where the collector keeps its events. */
export interface InsightsStorageOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema; default `insights`. */
  schema?: string | undefined;
}

/** The collector's open storage. */
export interface InsightsStorage {
  events: InsightsEventRepository;
  dialect: ServiceDatabase['dialect'];
  /** Throws when the database cannot be reached (for `/health`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Opens and migrates the collector's storage: `<dataDir>/insights.sqlite`, or the `insights` schema with `databaseUrl`. */
export async function openInsightsStorage(options: InsightsStorageOptions): Promise<InsightsStorage> {
  const database = await openServiceDatabase({ name: INSIGHTS_SERVICE_NAME, migrations: INSIGHTS_MIGRATIONS, ...options });
  if (database.dialect === 'sqlite') {
    return {
      dialect: 'sqlite',
      events: sqliteInsightsEventRepository(database.sqlite),
      check: async () => void database.sqlite.prepare('SELECT 1').get(),
      close: () => database.close(),
    };
  }
  return {
    dialect: 'postgres',
    events: postgresInsightsEventRepository(database.pool),
    check: async () => void (await database.pool.query('SELECT 1')),
    close: () => database.close(),
  };
}
