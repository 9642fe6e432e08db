import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SQLITE_MIGRATIONS } from '../migrations.js';
import type { Database } from '../types.js';
import { migrateSqlite } from '@khs/team-service';
import { sqliteRateLimitCounterRepository } from './sqliteRateLimitCounterRepository.js';
import { sqliteRateLimitLogRepository } from './sqliteRateLimitLogRepository.js';

/** File name of the SQLite database inside the data directory. */
export const SQLITE_FILE_NAME = 'khs.sqlite';

/**
 * Opens (creating if needed) `<dataDir>/khs.sqlite` and migrates it. WAL mode so readers do
 * not block the writer; a busy timeout so a second process waits for the lock instead of failing.
 */
export async function openSqliteDatabase(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const db = new BetterSqlite3(path.join(dataDir, SQLITE_FILE_NAME));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrateSqlite(db, SQLITE_MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    dialect: 'sqlite',
    rateLimitCounters: sqliteRateLimitCounterRepository(db),
    rateLimitLogs: sqliteRateLimitLogRepository(db),
    async close() {
      if (db.open) db.close();
    },
  };
}
