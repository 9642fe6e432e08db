import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../openDatabase.js';
import { POSTGRES_MIGRATIONS } from '../migrations.js';
import { describeRepositoryContract } from '../testing/repositoryContract.js';
import { migratePostgres } from '@khs/team-service';
import { createTemporaryPostgresSchema, POSTGRES_TESTS_SKIPPED_MESSAGE, type TemporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';

const baseUrl = testDatabaseUrl();

if (!baseUrl) {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
  describe.skip('PostgreSQL (no TEST_DATABASE_URL / DATABASE_URL)', () => {
    it('repository contract', () => undefined);
  });
} else {
  let contractSchema: TemporaryPostgresSchema;
  describeRepositoryContract('PostgreSQL', {
    open: async () => {
      contractSchema = await createTemporaryPostgresSchema(baseUrl);
      return openDatabase({ dataDir: '/nonexistent-unused', databaseUrl: contractSchema.url });
    },
    dispose: () => contractSchema.drop(),
  });

  describe('PostgreSQL migrations', () => {
    let schema: TemporaryPostgresSchema;
    beforeAll(async () => {
      schema = await createTemporaryPostgresSchema(baseUrl);
    });
    afterAll(async () => {
      await schema.drop();
    });

    it('applies each migration once when several instances start together, and keeps data', async () => {
      const instances = await Promise.all(
        Array.from({ length: 4 }, () => openDatabase({ dataDir: '/unused', databaseUrl: schema.url })),
      );
      expect(instances.every((db) => db.dialect === 'postgres')).toBe(true);
      expect((await instances[0]!.rateLimitCounters.hit('kept', 600_000)).hits).toBe(1);
      await Promise.all(instances.map((db) => db.close()));

      const reopened = await openDatabase({ dataDir: '/unused', databaseUrl: schema.url });
      expect((await reopened.rateLimitCounters.hit('kept', 600_000)).hits).toBe(2);
      await reopened.close();

      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      const { rows } = await client.query('SELECT version FROM schema_migrations ORDER BY version');
      await client.end();
      expect(rows).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version })));
    });

    it('rolls back a failing migration entirely', async () => {
      const other = await createTemporaryPostgresSchema(baseUrl);
      const pool = new pg.Pool({ connectionString: other.url });
      try {
        const good = { version: 1, name: 'good', sql: 'CREATE TABLE good (x INTEGER)' };
        const bad = { version: 2, name: 'bad', sql: 'SELECT * FROM missing_table' };
        await expect(migratePostgres(pool, other.schema, [good, bad])).rejects.toThrow();
        const { rows } = await pool.query(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
          [other.schema],
        );
        expect(rows).toEqual([]);
        expect(await migratePostgres(pool, other.schema, [good])).toEqual([1]);
        expect(await migratePostgres(pool, other.schema, [good])).toEqual([]);
      } finally {
        await pool.end();
        await other.drop();
      }
    });

    it('fails fast with an error when the server cannot be reached', async () => {
      await expect(
        openDatabase({ dataDir: '/unused', databaseUrl: 'postgres://nobody@127.0.0.1:1/none' }),
      ).rejects.toThrow();
    });
  });
}
