/**
 * The PostgreSQL URL tests use: `TEST_DATABASE_URL`, else `DATABASE_URL`; undefined when
 * neither is set (PostgreSQL tests are then skipped). Start a throwaway server with
 * `tooling/local-postgres/start.sh`.
 */
export function testDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_DATABASE_URL?.trim() || env.DATABASE_URL?.trim() || undefined;
}

/** The message printed when PostgreSQL tests are skipped. */
export const POSTGRES_TESTS_SKIPPED_MESSAGE =
  'PostgreSQL tests SKIPPED: set TEST_DATABASE_URL or DATABASE_URL (e.g. from tooling/local-postgres/start.sh) to run them.';
