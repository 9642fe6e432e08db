import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../openDatabase.js';
import { SQLITE_MIGRATIONS } from '../migrations.js';
import { describeRepositoryContract } from '../testing/repositoryContract.js';
import { migrateSqlite } from '@khs/team-service';
import { SQLITE_FILE_NAME } from './openSqliteDatabase.js';

const temporaryDirs: string[] = [];
function temporaryDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'khs-sqlite-'));
  temporaryDirs.push(dir);
  return dir;
}

let contractDir = '';
describeRepositoryContract('SQLite', {
  open: () => {
    contractDir = mkdtempSync(path.join(os.tmpdir(), 'khs-sqlite-contract-'));
    return openDatabase({ dataDir: contractDir });
  },
  dispose: async () => rmSync(contractDir, { recursive: true, force: true }),
});

describe('SQLite database file and migrations', () => {
  afterEach(() => {
    for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('creates <dataDir>/khs.sqlite, creating missing directories', async () => {
    const dataDir = path.join(temporaryDir(), 'nested', 'data');
    const db = await openDatabase({ dataDir });
    expect(db.dialect).toBe('sqlite');
    await db.close();
    expect(existsSync(path.join(dataDir, SQLITE_FILE_NAME))).toBe(true);
  });

  it('keeps data across reopening and applies each migration once', async () => {
    const dataDir = temporaryDir();
    const first = await openDatabase({ dataDir });
    expect((await first.rateLimitCounters.hit('kept', 600_000)).hits).toBe(1);
    await first.close();

    const second = await openDatabase({ dataDir });
    expect((await second.rateLimitCounters.hit('kept', 600_000)).hits).toBe(2);
    await second.close();

    const raw = new BetterSqlite3(path.join(dataDir, SQLITE_FILE_NAME));
    const versions = raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(versions).toEqual(SQLITE_MIGRATIONS.map((m) => ({ version: m.version })));
    raw.close();
  });

  it('migration runner applies only pending versions, in order', () => {
    const raw = new BetterSqlite3(':memory:');
    const first = { version: 1, name: 'one', sql: 'CREATE TABLE one (x INTEGER)' };
    const second = { version: 2, name: 'two', sql: 'CREATE TABLE two (x INTEGER)' };
    expect(migrateSqlite(raw, [first])).toEqual([1]);
    expect(migrateSqlite(raw, [second, first])).toEqual([2]);
    expect(migrateSqlite(raw, [first, second])).toEqual([]);
    raw.close();
  });

  it('rolls back a failing migration entirely', () => {
    const raw = new BetterSqlite3(':memory:');
    const good = { version: 1, name: 'good', sql: 'CREATE TABLE good (x INTEGER)' };
    const bad = { version: 2, name: 'bad', sql: 'CREATE TABLE bad (x INTEGER); SELECT * FROM missing_table' };
    expect(() => migrateSqlite(raw, [good, bad])).toThrow();
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all();
    expect(tables).toEqual([{ name: 'schema_migrations' }]);
    raw.close();
  });
});
