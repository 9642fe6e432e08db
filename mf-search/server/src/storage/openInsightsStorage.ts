import { openServiceStorage, type ServiceStorage } from '@khs/team-service';
import type { SiteSearchRepository } from './siteSearchRepository.js';
import type { InsightsEventRepository } from './insightsEventRepository.js';
import { INSIGHTS_MIGRATIONS } from './insightsMigrations.js';
import { postgresRerankRepository, sqliteRerankRepository, type RerankRepository } from './rerankRepository.js';
import { postgresInsightsEventRepository, postgresSiteSearchRepository } from './postgresInsightsEventRepository.js';
import { sqliteInsightsEventRepository, sqliteSiteSearchRepository } from './sqliteInsightsEventRepository.js';

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
export type InsightsStorage = ServiceStorage<{ events: InsightsEventRepository; searches: SiteSearchRepository; reranking: RerankRepository }>;

/** Opens and migrates the collector's storage: `<dataDir>/insights.sqlite`, or the `insights` schema with `databaseUrl`. */
export async function openInsightsStorage(options: InsightsStorageOptions): Promise<InsightsStorage> {
  return openServiceStorage({ name: INSIGHTS_SERVICE_NAME, migrations: INSIGHTS_MIGRATIONS, ...options }, {
    sqlite: (db) => ({ events: sqliteInsightsEventRepository(db), searches: sqliteSiteSearchRepository(db), reranking: sqliteRerankRepository(db) }),
    postgres: (pool) => ({ events: postgresInsightsEventRepository(pool), searches: postgresSiteSearchRepository(pool), reranking: postgresRerankRepository(pool) }),
  });
}
