// Survey benchmark: submissions/s, results-endpoint latency, votes counted vs sent, on SQLite
// and (when DATABASE_URL or TEST_DATABASE_URL is set) PostgreSQL. Prints figures only.
//
//   cd shell && npx tsx src/server/surveys/bench/survey-bench.ts
//   BENCH_SUBMISSIONS=5000 BENCH_CONNECTIONS=50 BENCH_RESULTS_SECONDS=5 npx tsx src/server/surveys/bench/survey-bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listSurveys } from '@khs/content';
import autocannon from 'autocannon';
import { buildShellApp } from '../../app.js';
import { readShellConfig } from '../../config.js';
import { repositoryContentStore } from '../../content/contentStore.js';
import { openDatabase, type Database } from '../../database/index.js';
import { createTemporaryPostgresSchema } from '../../database/testing/temporaryPostgresSchema.js';
import { testDatabaseUrl } from '../../database/testing/testDatabaseUrl.js';
import { surveyRoutes } from '../surveyRoutes.js';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RESULTS_SECONDS = Number(process.env.BENCH_RESULTS_SECONDS ?? 5);

interface DialectRun {
  label: string;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

/** A CSRF token and its secret cookie, fetched once like a browser would. */
async function csrfCredentials(baseUrl: string): Promise<{ token: string; cookie: string }> {
  const response = await fetch(`${baseUrl}/actions/blitz/csrf/token`);
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  return { token: await response.text(), cookie };
}

async function benchDialect(run: DialectRun): Promise<void> {
  const survey = listSurveys()[0];
  if (!survey) throw new Error('the content store has no survey to benchmark');
  const db = await run.open();
  // Behind a (simulated) trusted proxy on loopback: each request names its own client address,
  // so the per-address vote limit applies per simulated browser, as in production.
  const config = readShellConfig({ TRUST_PROXY: 'loopback' });
  const { app } = await buildShellApp({
    config,
    content: repositoryContentStore,
    search: { host: '127.0.0.1', port: 8108, protocol: 'http' },
    rateLimitCounters: db.rateLimitCounters,
    features: [
      { plugin: surveyRoutes, options: { content: repositoryContentStore, surveys: db.surveys, cookieSecret: config.cookieSecret } },
    ],
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    // One visitor identity (CSRF secret cookie) and one client address per submission: every
    // request is a new browser and should count once.
    const browsers: Array<{ token: string; cookie: string }> = [];
    for (let i = 0; i < SUBMISSIONS; i += 1) browsers.push(await csrfCredentials(baseUrl));
    const positions = survey.answers.map((answer) => answer.position);
    let next = 0;
    const submissions = await autocannon({
      url: `${baseUrl}/api/surveys/${survey.formHandle}/submissions`,
      connections: CONNECTIONS,
      amount: SUBMISSIONS,
      method: 'POST',
      requests: [
        {
          setupRequest: (request) => {
            const n = next++;
            const browser = browsers[n % browsers.length]!;
            return {
              ...request,
              headers: {
                ...request.headers,
                'content-type': 'application/json',
                'x-csrf-token': browser.token,
                cookie: browser.cookie,
                'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
              },
              body: JSON.stringify({ answerPosition: positions[n % positions.length] }),
            };
          },
        },
      ],
    });
    const votes = await db.surveys.countVotes(survey.formHandle);
    const counted = Object.values(votes).reduce((a, b) => a + b, 0);

    const results = await autocannon({
      url: `${baseUrl}/api/survey-results/${survey.formHandle}`,
      connections: CONNECTIONS,
      duration: RESULTS_SECONDS,
      headers: { accept: 'application/json' },
    });

    console.log(`\n== ${run.label} (survey "${survey.formHandle}", ${CONNECTIONS} connections)`);
    console.log(
      `submissions: ${submissions.requests.sent} sent, ${submissions['2xx']} answered 2xx, ${submissions.non2xx} non-2xx, ` +
        `${submissions.errors} errors in ${submissions.duration.toFixed(2)} s -> ${(submissions['2xx'] / submissions.duration).toFixed(0)} submissions/s ` +
        `(latency p50 ${submissions.latency.p50} ms, p99 ${submissions.latency.p99} ms)`,
    );
    console.log(`votes counted in the database: ${counted} of ${submissions.requests.sent} sent`);
    console.log(
      `results endpoint: ${results.requests.average.toFixed(0)} req/s, latency p50 ${results.latency.p50} ms, p99 ${results.latency.p99} ms ` +
        `(${results['2xx']} ok, ${results.non2xx} non-2xx over ${results.duration.toFixed(1)} s)`,
    );
  } finally {
    await app.close();
    await db.close();
    await run.dispose();
  }
}

async function main(): Promise<void> {
  console.log(`Survey benchmark: ${SUBMISSIONS} submissions, results for ${RESULTS_SECONDS} s, node ${process.version}`);
  const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'khs-survey-bench-'));
  const runs: DialectRun[] = [
    {
      label: 'SQLite (file in a temp dir, WAL)',
      open: () => openDatabase({ dataDir: sqliteDir }),
      dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }),
    },
  ];
  const postgresUrl = testDatabaseUrl();
  if (postgresUrl) {
    let drop: () => Promise<void> = async () => undefined;
    runs.push({
      label: 'PostgreSQL (temporary schema, pool of 10)',
      open: async () => {
        const schema = await createTemporaryPostgresSchema(postgresUrl);
        drop = schema.drop;
        return openDatabase({ dataDir: sqliteDir, databaseUrl: schema.url });
      },
      dispose: () => drop(),
    });
  } else {
    console.log('PostgreSQL skipped: set DATABASE_URL or TEST_DATABASE_URL (tooling/local-postgres/start.sh) to include it.');
  }
  for (const run of runs) await benchDialect(run);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
