import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../migrations.js';
import type { Database } from '../types.js';
import { migratePostgres } from '@khs/team-service';
import { postgresRateLimitCounterRepository } from './postgresRateLimitCounterRepository.js';
import { PostgresIslandFailureStore } from '../../islandFailures/postgresIslandFailureStore.js';

/** Options of the PostgreSQL connection pool. */
export interface PostgresOptions {
  /** Pool size. Default 10. */
  maxConnections?: number;
}

/**
 * Connects to `databaseUrl` (a `postgres://` URL; `?options=-c search_path=x` selects a
 * schema) and migrates it. Fails fast when the server cannot be reached.
 */
export async function openPostgresDatabase(databaseUrl: string, options: PostgresOptions = {}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection emits on the pool; without a listener that crashes the process.
  pool.on('error', (error) => console.error('PostgreSQL idle client error:', error.message));
  try {
    // The lock is per schema, as for every team service: the schema the connections use.
    const { rows } = await pool.query<{ schema: string }>('SELECT current_schema() AS schema');
    await migratePostgres(pool, rows[0]!.schema, POSTGRES_MIGRATIONS);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closed = false;
  const islandFailures = new PostgresIslandFailureStore(pool);
  return {
    dialect: 'postgres',
    rateLimitCounters: postgresRateLimitCounterRepository(pool),
    islandFailures,
    async close() {
      if (closed) return;
      closed = true;
      await islandFailures.close().catch(() => undefined);
      await pool.end();
    },
  };
}
