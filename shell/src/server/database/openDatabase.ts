import type { Database } from './types.js';
import { openPostgresDatabase } from './postgres/openPostgresDatabase.js';
import { openSqliteDatabase } from './sqlite/openSqliteDatabase.js';

/** Where the shell keeps its data. */
export interface DatabaseOptions {
  /** Directory of the SQLite file `khs.sqlite` (created if missing); used when no URL is set. */
  dataDir: string;
  /** PostgreSQL URL (`DATABASE_URL`); when set, PostgreSQL is used instead of SQLite. */
  databaseUrl?: string | undefined;
}

/** Opens and migrates the database: PostgreSQL when `databaseUrl` is set, else SQLite. */
export async function openDatabase({ dataDir, databaseUrl }: DatabaseOptions): Promise<Database> {
  return databaseUrl ? openPostgresDatabase(databaseUrl) : openSqliteDatabase(dataDir);
}
