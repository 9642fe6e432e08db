import { randomBytes } from 'node:crypto';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { startTeamService, type RunningTeamService, type TeamServiceName } from '@khs/stack';

/** Team service processes for the shell's tests, and a look into what they stored. */
export interface TeamServiceUnderTest {
  /** Origins of its instances. */
  urls: string[];
  instances: RunningTeamService[];
  /** Rows of `table` in the service's storage (its SQLite file `<name>.sqlite` / its schema). White-box on purpose. */
  countRows(table: string): Promise<number>;
  /** Stops every instance (and drops the PostgreSQL schema). */
  stop(): Promise<void>;
}

/** A survey service process for the shell's proxy tests, and a look into what it stored. */
export interface SurveyServiceUnderTest {
  /** Origins of its instances. */
  urls: string[];
  instances: RunningTeamService[];
  /**
   * Votes stored in its storage. White-box on purpose: "nothing was stored" must not depend on
   * the service's own answers. Reads the service's SQLite file / schema (`survey_votes`).
   */
  countVotes(): Promise<number>;
  /** Stops every instance (and drops the PostgreSQL schema). */
  stop(): Promise<void>;
}

/**
 * Starts `instances` survey service processes (the slice's own `npm start` entry, through the stack
 * starter — the shell imports no slice source) sharing one storage: SQLite in `dataDir`, or with
 * `postgresUrl` a fresh schema there.
 */
export async function startSurveyServiceForTest(options: TeamServiceTestOptions): Promise<SurveyServiceUnderTest> {
  const service = await startTeamServiceForTest('survey', options);
  return { urls: service.urls, instances: service.instances, countVotes: () => service.countRows('survey_votes'), stop: () => service.stop() };
}

/** Where and how many instances. */
export interface TeamServiceTestOptions {
  dataDir: string;
  postgresUrl?: string | undefined;
  instances?: number;
  /** Further environment (e.g. `SITE_NAME`). */
  env?: Record<string, string>;
  /**
   * The name the service's storage goes by (its SQLite file `<storageName>.sqlite`), when it is not
   * the service's: the search team's service kept `insights` for its data when it was renamed.
   * Default: `name`.
   */
  storageName?: string;
}

/**
 * Starts `instances` processes of a team service (its slice's own start entry, through the stack
 * starter — the shell imports no slice source) sharing one storage: SQLite in `dataDir`, or with
 * `postgresUrl` a fresh schema there.
 */
export async function startTeamServiceForTest(name: TeamServiceName, options: TeamServiceTestOptions): Promise<TeamServiceUnderTest> {
  // A schema name is a word: the service's name without its hyphens.
  const schema = options.postgresUrl ? `test_${name.replaceAll('-', '_')}_${randomBytes(5).toString('hex')}` : undefined;
  const env = {
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.postgresUrl ?? '',
    DATABASE_SCHEMA: schema ?? '',
    NODE_ENV: 'production',
    ...options.env,
  };
  // One after the other: the first creates and migrates the storage (the others would wait on its lock anyway).
  const instances: RunningTeamService[] = [];
  try {
    for (let i = 0; i < (options.instances ?? 1); i += 1) instances.push(await startTeamService(name, { env }));
  } catch (error) {
    for (const instance of instances) await instance.stop();
    throw error;
  }
  return {
    urls: instances.map((instance) => instance.url),
    instances,
    async countRows(table) {
      if (options.postgresUrl && schema) {
        const client = new pg.Client({ connectionString: options.postgresUrl });
        await client.connect();
        try {
          return Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema}.${table}`)).rows[0]!.n);
        } finally {
          await client.end();
        }
      }
      const raw = new BetterSqlite3(path.join(options.dataDir, `${options.storageName ?? name}.sqlite`), { readonly: true });
      try {
        return (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      } finally {
        raw.close();
      }
    },
    async stop() {
      for (const instance of instances) await instance.stop();
      if (options.postgresUrl && schema) {
        const client = new pg.Client({ connectionString: options.postgresUrl });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        } finally {
          await client.end();
        }
      }
    },
  };
}
