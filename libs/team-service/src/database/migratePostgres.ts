import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Migration } from './migration.js';

/** Advisory-lock key of one schema's migrations (instances of other services migrate in parallel). */
function migrationLockKey(schema: string): string {
  return createHash('sha256').update(`khs-migrations:${schema}`).digest().readBigInt64BE(0).toString();
}

/**
 * Applies the migrations not yet recorded in `<schema>.schema_migrations`, in version order, in one
 * transaction holding an advisory lock for the schema, so several instances starting together apply
 * each version exactly once. The pool's connections must use `schema` (search_path). Idempotent.
 * Returns the versions applied by this call.
 */
export async function migratePostgres(pool: pg.Pool, schema: string, migrations: Migration[]): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [migrationLockKey(schema)]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
    for (const migration of pending) {
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
    return pending.map((m) => m.version);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
