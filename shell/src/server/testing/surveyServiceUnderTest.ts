import { randomBytes } from 'node:crypto';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { startTeamService, type RunningTeamService } from '@khs/stack';

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
export async function startSurveyServiceForTest(options: {
  dataDir: string;
  cookieSecret: string;
  postgresUrl?: string | undefined;
  instances?: number;
}): Promise<SurveyServiceUnderTest> {
  const schema = options.postgresUrl ? `test_survey_${randomBytes(5).toString('hex')}` : undefined;
  const env = {
    DATA_DIR: options.dataDir,
    COOKIE_SECRET: options.cookieSecret,
    DATABASE_URL: options.postgresUrl ?? '',
    DATABASE_SCHEMA: schema ?? '',
    NODE_ENV: 'production',
  };
  // One after the other: the first creates and migrates the storage (the others would wait on its lock anyway).
  const instances: RunningTeamService[] = [];
  try {
    for (let i = 0; i < (options.instances ?? 1); i += 1) instances.push(await startTeamService('survey', { env }));
  } catch (error) {
    for (const instance of instances) await instance.stop();
    throw error;
  }
  return {
    urls: instances.map((instance) => instance.url),
    instances,
    async countVotes() {
      if (options.postgresUrl && schema) {
        const client = new pg.Client({ connectionString: options.postgresUrl });
        await client.connect();
        try {
          return Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema}.survey_votes`)).rows[0]!.n);
        } finally {
          await client.end();
        }
      }
      const raw = new BetterSqlite3(path.join(options.dataDir, 'survey.sqlite'), { readonly: true });
      try {
        return (raw.prepare('SELECT COUNT(*) AS n FROM survey_votes').get() as { n: number }).n;
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
