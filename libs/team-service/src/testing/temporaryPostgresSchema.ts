import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throwaway schema for one test suite, a URL whose connections use it, and how to drop it. */
export interface TemporaryPostgresSchema {
  schema: string;
  /** `baseUrl` with `options=-c search_path=<schema>`: for a database that takes its schema from the URL (the shell's). */
  url: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * A fresh schema name, so test suites sharing one server do not see each other's rows. A team
 * service creates and migrates it on open (`openServiceDatabase({ schema })`); for a database
 * that takes it from `url` instead, use `createTemporaryPostgresSchema`. `drop()` removes it.
 */
export function temporaryPostgresSchema(baseUrl: string): TemporaryPostgresSchema {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    drop: () => withClient(baseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

/** `temporaryPostgresSchema`, created empty on the server (migrations then run from scratch in it). */
export async function createTemporaryPostgresSchema(baseUrl: string): Promise<TemporaryPostgresSchema> {
  const temporary = temporaryPostgresSchema(baseUrl);
  await withClient(baseUrl, `CREATE SCHEMA ${temporary.schema}`);
  return temporary;
}

async function withClient(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
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
