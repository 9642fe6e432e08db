// Survey service benchmark: submissions/s, results-call latency, votes counted vs sent, on SQLite and
// (when DATABASE_URL or TEST_DATABASE_URL is set) PostgreSQL. The service alone, as the shell's proxy
// reaches it (edge key and a voter id per request). Prints figures only.
//
//   npx tsx mf-survey/server/bench/survey-bench.ts
//   BENCH_SUBMISSIONS=5000 BENCH_CONNECTIONS=50 BENCH_RESULTS_SECONDS=5 npx tsx mf-survey/server/bench/survey-bench.ts
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listSurveys } from '@khs/content';
import { EDGE_KEY_HEADER, VISITOR_ID_HEADER, edgeKeyOf } from '@khs/team-service/edge';
import { temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import autocannon from 'autocannon';
import { buildSurveyService } from '../src/buildSurveyService.js';
import { openSurveyStorage, type SurveyStorage } from '../src/storage/openSurveyStorage.js';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const RESULTS_SECONDS = Number(process.env.BENCH_RESULTS_SECONDS ?? 5);
const EDGE_KEY = edgeKeyOf('survey-bench-cookie-secret-0123456789abcdef');

interface DialectRun {
  label: string;
  open(): Promise<SurveyStorage>;
  dispose(): Promise<void>;
}

async function benchDialect(run: DialectRun): Promise<void> {
  const survey = listSurveys()[0];
  if (!survey) throw new Error('the content store has no survey to benchmark');
  const storage = await run.open();
  const app = await buildSurveyService({ storage, edgeKey: EDGE_KEY });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    // A new voter per submission: every request should count once.
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
            return {
              ...request,
              headers: { ...request.headers, 'content-type': 'application/json', [EDGE_KEY_HEADER]: EDGE_KEY, [VISITOR_ID_HEADER]: randomBytes(16).toString('base64url').slice(0, 22) },
              body: JSON.stringify({ answerPosition: positions[n % positions.length] }),
            };
          },
        },
      ],
    });
    const votes = await storage.surveys.countVotes(survey.formHandle);
    const counted = Object.values(votes).reduce((a, b) => a + b, 0);
    const results = await autocannon({ url: `${baseUrl}/api/survey-results/${survey.formHandle}`, connections: CONNECTIONS, duration: RESULTS_SECONDS, headers: { accept: 'application/json' } });

    console.log(`\n== ${run.label} (survey "${survey.formHandle}", ${CONNECTIONS} connections)`);
    console.log(
      `submissions: ${submissions.requests.sent} sent, ${submissions['2xx']} answered 2xx, ${submissions.non2xx} non-2xx, ` +
        `${submissions.errors} errors in ${submissions.duration.toFixed(2)} s -> ${(submissions['2xx'] / submissions.duration).toFixed(0)} submissions/s ` +
        `(latency p50 ${submissions.latency.p50} ms, p99 ${submissions.latency.p99} ms)`,
    );
    console.log(`votes counted in the storage: ${counted} of ${submissions.requests.sent} sent`);
    console.log(
      `results call: ${results.requests.average.toFixed(0)} req/s, latency p50 ${results.latency.p50} ms, p99 ${results.latency.p99} ms ` +
        `(${results['2xx']} ok, ${results.non2xx} non-2xx over ${results.duration.toFixed(1)} s)`,
    );
  } finally {
    await app.close();
    await storage.close();
    await run.dispose();
  }
}

async function main(): Promise<void> {
  console.log(`Survey service benchmark: ${SUBMISSIONS} submissions, results for ${RESULTS_SECONDS} s, node ${process.version}`);
  const sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'khs-survey-bench-'));
  const runs: DialectRun[] = [
    { label: 'SQLite (survey.sqlite in a temp dir, WAL)', open: () => openSurveyStorage({ dataDir: sqliteDir }), dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }) },
  ];
  const postgresUrl = testDatabaseUrl();
  if (postgresUrl) {
    const schema = temporaryPostgresSchema(postgresUrl);
    runs.push({ label: 'PostgreSQL (own schema, pool of 10)', open: () => openSurveyStorage({ dataDir: sqliteDir, databaseUrl: postgresUrl, schema: schema.schema }), dispose: () => schema.drop() });
  } else {
    console.log('PostgreSQL skipped: set DATABASE_URL or TEST_DATABASE_URL (tooling/local-postgres/start.sh) to include it.');
  }
  for (const run of runs) await benchDialect(run);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
