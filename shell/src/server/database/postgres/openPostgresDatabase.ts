import { POSTGRES_MIGRATIONS } from '../migrations.js';
import type { Database } from '../types.js';
import { openMigratedPostgresPool } from '@khs/team-service';
import { postgresRateLimitCounterRepository } from './postgresRateLimitCounterRepository.js';
import { postgresRateLimitLogRepository } from './postgresRateLimitLogRepository.js';
import { PostgresIslandFailureStore } from '../../islandFailures/postgresIslandFailureStore.js';
import { PostgresCanaryEndStore } from '../../canary/canaryEndStore.js';

/** Options of the PostgreSQL connection pool. */
export interface PostgresOptions {
  /** Pool size. Default 10. */
  maxConnections?: number;
}

/**
 * Connects to `databaseUrl` (a `postgres://` URL; `?options=-c search_path=x` selects a
 * schema) and migrates it, through the team-service kit's pool setup. Fails fast when the server
 * cannot be reached.
 */
export async function openPostgresDatabase(databaseUrl: string, options: PostgresOptions = {}): Promise<Database> {
  const pool = await openMigratedPostgresPool(databaseUrl, { label: 'shell', maxConnections: options.maxConnections, migrations: POSTGRES_MIGRATIONS });
  let closed = false;
  const islandFailures = new PostgresIslandFailureStore(pool);
  const canaryEnds = new PostgresCanaryEndStore(pool);
  return {
    dialect: 'postgres',
    rateLimitCounters: postgresRateLimitCounterRepository(pool),
    rateLimitLogs: postgresRateLimitLogRepository(pool),
    islandFailures,
    canaryEnds,
    async close() {
      if (closed) return;
      closed = true;
      await islandFailures.close().catch(() => undefined);
      await canaryEnds.close().catch(() => undefined);
      await pool.end();
    },
  };
}
