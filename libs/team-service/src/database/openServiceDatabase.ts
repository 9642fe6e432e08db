import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { migratePostgres } from './migratePostgres.js';
import { migrateSqlite } from './migrateSqlite.js';
import type { Migration, ServiceMigrations } from './migration.js';

/** Where a service keeps its data. */
export interface ServiceDatabaseOptions {
  /** The service's name: its SQLite file is `<dataDir>/<name>.sqlite`, its PostgreSQL schema `<name>`. */
  name: string;
  /** Folder of the SQLite file (created if missing); used when no `databaseUrl` is set. */
  dataDir: string;
  /** PostgreSQL URL (`DATABASE_URL`): the service then uses its own schema there instead of SQLite. */
  databaseUrl?: string | undefined;
  /** Schema name in PostgreSQL. Default: `name` (tests pass a throwaway one). */
  schema?: string | undefined;
  /** Pool size on PostgreSQL. Default 10. */
  maxConnections?: number;
  migrations: ServiceMigrations;
}

/** An open, migrated service database: one of the two dialects. */
export type ServiceDatabase =
  | { dialect: 'sqlite'; sqlite: BetterSqlite3.Database; close(): Promise<void> }
  | { dialect: 'postgres'; pool: pg.Pool; schema: string; close(): Promise<void> };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** File name of a service's SQLite database. */
export function sqliteFileName(name: string): string {
  return `${name}.sqlite`;
}

/**
 * Opens and migrates the service's own storage: `<dataDir>/<name>.sqlite` by default (WAL, busy
 * timeout so a second process waits for the lock), or — with `databaseUrl` — the schema `<name>`
 * in PostgreSQL, created when missing; every connection of the pool uses it (search_path), so the
 * service's tables never mix with another service's.
 */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<ServiceDatabase> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  mkdirSync(options.dataDir, { recursive: true });
  const db = new BetterSqlite3(path.join(options.dataDir, sqliteFileName(options.name)));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrateSqlite(db, options.migrations.sqlite);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    dialect: 'sqlite',
    sqlite: db,
    async close() {
      if (db.open) db.close();
    },
  };
}

async function openPostgres(databaseUrl: string, options: ServiceDatabaseOptions): Promise<ServiceDatabase> {
  const schema = options.schema ?? options.name.replace(/-/g, '_');
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Not a schema name: "${schema}"`);
  const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (error) {
    // Two instances starting together: the loser of the race sees a duplicate; the schema exists.
    if ((error as { code?: string }).code !== '23505' && (error as { code?: string }).code !== '42P06') throw error;
  } finally {
    await admin.end();
  }
  const pool = await openMigratedPostgresPool(databaseUrl, { label: options.name, schema, maxConnections: options.maxConnections, migrations: options.migrations.postgres });
  let closed = false;
  return {
    dialect: 'postgres',
    pool,
    schema,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** What `openMigratedPostgresPool` opens. */
export interface MigratedPostgresPoolOptions {
  /** Names the pool in its log lines (`[shell] PostgreSQL idle client error: …`). */
  label: string;
  /** The schema every connection uses (search_path). Default: the URL's own (`?options=-c search_path=x`, else `public`). */
  schema?: string | undefined;
  /** Pool size. Default 10. */
  maxConnections?: number | undefined;
  migrations: Migration[];
}

/**
 * A PostgreSQL pool on `databaseUrl` with the site's settings (10 s connect timeout, idle-client
 * errors logged rather than crashing the process), its schema migrated under the schema's advisory
 * lock; the pool is ended when that fails. Team services reach it through `openServiceDatabase`;
 * the shell, whose schema is the URL's, calls it directly.
 */
export async function openMigratedPostgresPool(databaseUrl: string, options: MigratedPostgresPoolOptions): Promise<pg.Pool> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle client losing its connection emits on the pool; without a listener that crashes the process.
  pool.on('error', (error) => console.error(`[${options.label}] PostgreSQL idle client error:`, error.message));
  try {
    // The migration lock is per schema: the one the connections use.
    const schema = options.schema ?? (await pool.query<{ schema: string }>('SELECT current_schema() AS schema')).rows[0]!.schema;
    await migratePostgres(pool, schema, options.migrations);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}
