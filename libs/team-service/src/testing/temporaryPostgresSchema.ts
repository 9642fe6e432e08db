import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throwaway schema name for one test suite, and how to drop it. */
export interface TemporaryPostgresSchema {
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * A fresh schema name (the service creates and migrates it on open), so test suites sharing one
 * server do not see each other's rows. `drop()` removes it afterwards.
 */
export function temporaryPostgresSchema(baseUrl: string): TemporaryPostgresSchema {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * The PostgreSQL URL tests use: `TEST_DATABASE_URL`, else `DATABASE_URL`; undefined when neither is
 * set (PostgreSQL tests are then skipped). `tooling/local-postgres/start.sh` starts a throwaway one.
 */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_DATABASE_URL?.trim() || env.DATABASE_URL?.trim() || undefined;
}

/** The message printed when PostgreSQL tests are skipped. */
export const POSTGRES_TESTS_SKIPPED_MESSAGE =
  'PostgreSQL tests SKIPPED: set TEST_DATABASE_URL or DATABASE_URL (e.g. from tooling/local-postgres/start.sh) to run them.';
