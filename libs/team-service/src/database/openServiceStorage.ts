import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from './openServiceDatabase.js';
import { timedRepositories } from './timedRepositories.js';

/** A service's open storage: its repositories, with the dialect, a health check and close. */
export type ServiceStorage<Repositories extends object> = Repositories & {
  dialect: ServiceDatabase['dialect'];
  /** Throws when the database cannot be reached (for `/health`). */
  check(): Promise<void>;
  close(): Promise<void>;
};

/** How a service builds its repositories on each dialect. */
export interface ServiceRepositories<Repositories extends object> {
  sqlite(db: BetterSqlite3.Database): Repositories;
  postgres(pool: pg.Pool): Repositories;
}

/**
 * Opens and migrates a service's database (`openServiceDatabase`) and builds its repositories on
 * it: the one way every team service opens its storage. Every repository call is timed
 * (`khs_storage_call_duration_seconds`, served by the service's `/metrics`).
 */
export async function openServiceStorage<Repositories extends object>(
  options: ServiceDatabaseOptions,
  repositories: ServiceRepositories<Repositories>,
): Promise<ServiceStorage<Repositories>> {
  const database = await openServiceDatabase(options);
  const close = () => database.close();
  if (database.dialect === 'sqlite') {
    const db = database.sqlite;
    return { ...timedRepositories(options.name, repositories.sqlite(db)), dialect: 'sqlite', check: async () => void db.prepare('SELECT 1').get(), close };
  }
  const { pool } = database;
  return { ...timedRepositories(options.name, repositories.postgres(pool)), dialect: 'postgres', check: async () => void (await pool.query('SELECT 1')), close };
}
