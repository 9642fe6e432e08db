import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A schema created for one test suite, and a URL whose connections use it. */
export interface TemporaryPostgresSchema {
  /** `baseUrl` with `options=-c search_path=<schema>`: tables are created in the schema. */
  url: string;
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/**
 * Creates an empty schema so test suites sharing one server do not see each other's rows
 * (and migrations run from scratch in each).
 */
export async function createTemporaryPostgresSchema(baseUrl: string): Promise<TemporaryPostgresSchema> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
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
