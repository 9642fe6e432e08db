import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '../testing/temporaryPostgresSchema.js';
import { migrateSqlite } from './migrateSqlite.js';
import type { ServiceMigrations } from './migration.js';
import { openServiceDatabase, sqliteFileName } from './openServiceDatabase.js';

const MIGRATIONS: ServiceMigrations = {
  sqlite: [
    { version: 2, name: 'second', sql: 'ALTER TABLE notes ADD COLUMN author TEXT' },
    { version: 1, name: 'first', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' },
  ],
  postgres: [
    { version: 2, name: 'second', sql: 'ALTER TABLE notes ADD COLUMN author TEXT' },
    { version: 1, name: 'first', sql: 'CREATE TABLE notes (id SERIAL PRIMARY KEY, body TEXT NOT NULL)' },
  ],
};

const dirs: string[] = [];
const temporaryDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'khs-team-service-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('openServiceDatabase on SQLite', () => {
  it('creates <dataDir>/<name>.sqlite and applies the migrations in version order, once', async () => {
    const dataDir = path.join(temporaryDir(), 'nested');
    const db = await openServiceDatabase({ name: 'notes', dataDir, migrations: MIGRATIONS });
    if (db.dialect !== 'sqlite') throw new Error('expected SQLite');
    expect(existsSync(path.join(dataDir, sqliteFileName('notes')))).toBe(true);
    db.sqlite.prepare('INSERT INTO notes (body, author) VALUES (?, ?)').run('hello', 'me');
    expect(db.sqlite.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1 }, { version: 2 }]);
    expect(migrateSqlite(db.sqlite, MIGRATIONS.sqlite)).toEqual([]);
    await db.close();
    const again = await openServiceDatabase({ name: 'notes', dataDir, migrations: MIGRATIONS });
    if (again.dialect !== 'sqlite') throw new Error('expected SQLite');
    expect(again.sqlite.prepare('SELECT body, author FROM notes').all()).toEqual([{ body: 'hello', author: 'me' }]);
    await again.close();
  });

  it('keeps two services in two files of the same data folder', async () => {
    const dataDir = temporaryDir();
    const a = await openServiceDatabase({ name: 'a', dataDir, migrations: MIGRATIONS });
    const b = await openServiceDatabase({ name: 'b', dataDir, migrations: MIGRATIONS });
    if (a.dialect !== 'sqlite' || b.dialect !== 'sqlite') throw new Error('expected SQLite');
    a.sqlite.prepare('INSERT INTO notes (body) VALUES (?)').run('only in a');
    expect(b.sqlite.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
    await a.close();
    await b.close();
  });

  it('rolls a failing migration back entirely', async () => {
    const dataDir = temporaryDir();
    const broken: ServiceMigrations = {
      sqlite: [...MIGRATIONS.sqlite, { version: 3, name: 'broken', sql: 'CREATE TABLE later (x INTEGER); SELECT * FROM missing_table' }],
      postgres: [],
    };
    await expect(openServiceDatabase({ name: 'notes', dataDir, migrations: broken })).rejects.toThrow(/missing_table/);
    const db = await openServiceDatabase({ name: 'notes', dataDir, migrations: MIGRATIONS });
    if (db.dialect !== 'sqlite') throw new Error('expected SQLite');
    expect(db.sqlite.prepare("SELECT name FROM sqlite_master WHERE name IN ('notes', 'later')").all()).toEqual([{ name: 'notes' }]);
    await db.close();
  });
});

const databaseUrl = testDatabaseUrl();
if (!databaseUrl) console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);

describe.skipIf(!databaseUrl)('openServiceDatabase on PostgreSQL', () => {
  // vitest collects a skipped describe's body too: without a database there is no URL to make schemas of.
  const schemas = databaseUrl ? [temporaryPostgresSchema(databaseUrl), temporaryPostgresSchema(databaseUrl)] : [];
  afterAll(async () => {
    for (const schema of schemas) await schema.drop();
  });

  it('creates the service schema, migrates it once even when several instances start together, and keeps schemas apart', async () => {
    const [first, second] = schemas as [(typeof schemas)[0], (typeof schemas)[0]];
    const instances = await Promise.all(
      [1, 2, 3].map(() => openServiceDatabase({ name: 'notes', dataDir: '', databaseUrl, schema: first.schema, migrations: MIGRATIONS })),
    );
    const other = await openServiceDatabase({ name: 'notes', dataDir: '', databaseUrl, schema: second.schema, migrations: MIGRATIONS });
    try {
      const [one] = instances;
      if (one?.dialect !== 'postgres' || other.dialect !== 'postgres') throw new Error('expected PostgreSQL');
      const { rows } = await one.pool.query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
      await one.pool.query("INSERT INTO notes (body, author) VALUES ('in first', 'me')");
      expect((await other.pool.query('SELECT COUNT(*)::int AS n FROM notes')).rows).toEqual([{ n: 0 }]);
      const located = await one.pool.query("SELECT table_schema FROM information_schema.tables WHERE table_name = 'notes' AND table_schema = $1", [first.schema]);
      expect(located.rowCount).toBe(1);
    } finally {
      for (const db of [...instances, other]) await db.close();
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openServiceDatabase({ name: 'notes', dataDir: '', databaseUrl, schema: 'x; DROP TABLE y', migrations: MIGRATIONS })).rejects.toThrow(/schema name/);
  });
});
