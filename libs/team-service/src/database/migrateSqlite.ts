import type BetterSqlite3 from 'better-sqlite3';
import type { Migration } from './migration.js';

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in version order, in one
 * IMMEDIATE transaction (takes the write lock first, so two processes starting on the same file
 * cannot both apply a version). Idempotent: a second run applies nothing. Returns the versions applied.
 */
export function migrateSqlite(db: BetterSqlite3.Database, migrations: Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  )`);
  const applyPending = db.transaction(() => {
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').all().map((row) => (row as { version: number }).version));
    const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
    const record = db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
    for (const migration of pending) {
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
    }
    return pending.map((m) => m.version);
  });
  return applyPending.immediate();
}
