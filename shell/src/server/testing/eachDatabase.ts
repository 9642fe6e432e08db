import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openDatabase, type Database } from '../database/index.js';
import { SQLITE_FILE_NAME } from '../database/sqlite/openSqliteDatabase.js';
import { createTemporaryPostgresSchema, POSTGRES_TESTS_SKIPPED_MESSAGE, type TemporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';

/** The suite's open database and its data directory (attachments etc. live there on both dialects). */
export interface DatabaseUnderTest {
  db: Database;
  dataDir: string;
  /** Rows in a table, counted with a separate connection (proves what was stored). */
  countRows(table: 'rate_limit_counters'): Promise<number>;
}

/**
 * Runs `suite` once on a fresh SQLite file and once on PostgreSQL (a temporary schema of
 * `TEST_DATABASE_URL`/`DATABASE_URL`; skipped with a printed message when neither is set).
 * `current()` gives the open database inside tests and hooks.
 */
export function describeOnEachDatabase(label: string, suite: (current: () => DatabaseUnderTest) => void): void {
  type Opened = { db: Database; countRows: DatabaseUnderTest['countRows']; dispose?: () => Promise<void> };
  const targets: Array<{ dialect: string; open: (dataDir: string) => Promise<Opened> }> = [
    {
      dialect: 'SQLite',
      open: async (dataDir) => ({
        db: await openDatabase({ dataDir }),
        countRows: async (table) => {
          const raw = new BetterSqlite3(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true });
          try {
            return (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
          } finally {
            raw.close();
          }
        },
      }),
    },
  ];
  const postgresUrl = testDatabaseUrl();
  if (postgresUrl) {
    targets.push({
      dialect: 'PostgreSQL',
      open: async (dataDir) => {
        const schema: TemporaryPostgresSchema = await createTemporaryPostgresSchema(postgresUrl);
        const client = new pg.Client({ connectionString: schema.url });
        await client.connect();
        return {
          db: await openDatabase({ dataDir, databaseUrl: schema.url }),
          countRows: async (table) => Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n),
          dispose: async () => {
            await client.end();
            await schema.drop();
          },
        };
      },
    });
  }
  for (const target of targets) {
    describe(`${label} (${target.dialect})`, () => {
      let state: DatabaseUnderTest | undefined;
      let dispose: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-route-test-'));
        const opened = await target.open(dataDir);
        state = { db: opened.db, dataDir, countRows: opened.countRows };
        dispose = opened.dispose;
      });
      afterAll(async () => {
        await state?.db.close();
        await dispose?.();
        if (state) rmSync(state.dataDir, { recursive: true, force: true });
      });
      suite(() => {
        if (!state) throw new Error('database not open yet');
        return state;
      });
    });
  }
  if (!postgresUrl) {
    console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
    describe.skip(`${label} (PostgreSQL)`, () => {
      it('runs with TEST_DATABASE_URL or DATABASE_URL', () => undefined);
    });
  }
}
