// Ingestion into the search service's analytics store: site-search records (one per call, as the
// route stores them) next to the baseline of insights events (one per call and in batches of 20,
// as the collector stores them), same run, same storage. Then the editors' report over a store of
// BENCH_STORED_EVENTS (default 1,000,000) generated rows — 40 % searches, 60 % their view, click and
// conversion events, over 30 days — rendered as the service answers it (token check, the figures'
// statements, the page's HTML), next to the baselines of the same run: the same report over one day
// of the same store, and one full count of the events table. SQLite always; PostgreSQL with
// DATABASE_URL (tooling/local-postgres). Bounded: BENCH_RECORDS (default 20,000) of each kind
// ingested, BENCH_REPORT_RUNS (default 5) renders each. Run: npm run bench:analytics -w mf-search
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { temporaryPostgresSchema } from '@khs/team-service/testing';
import { buildInsightsService } from '../src/buildInsightsService.js';
import { SEARCH_REPORT_PATH } from '../src/report/searchReportRoutes.js';
import type { InsightsEvent } from '../src/storage/insightsEventRepository.js';
import { openInsightsStorage, type InsightsStorage } from '../src/storage/openInsightsStorage.js';
import { validateSiteSearch } from '../src/validateSiteSearch.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 20_000);
const QUERIES = ['lead', 'kpi', 'feedback', 'team', 'onboarding', 'xyzzy'];
const STORED_EVENTS = Number(process.env.BENCH_STORED_EVENTS ?? 1_000_000);
const REPORT_RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 5);
const EDITOR_TOKEN = 'bench-editor-token-0123456789';
const DAY_MS = 24 * 60 * 60 * 1000;

/** The generated store's searches and their events (40 % / 60 % of STORED_EVENTS), spread over 30 days before `end`. */
function generatedShape(end: number) {
  const searches = Math.round(STORED_EVENTS * 0.4);
  return { searches, events: STORED_EVENTS - searches, start: end - 30 * DAY_MS, stepMs: Math.max(1, Math.floor((30 * DAY_MS) / searches)) };
}

/**
 * Generated rows in the database itself (one statement per table; the ingestion above measured the
 * service's own path): 5,000 queries, every tenth search without results, a third with a topic
 * filter; per search a view, and for some a click (position 1–10) or a conversion.
 */
const GENERATE = {
  sqlite: {
    searches: `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
      INSERT INTO site_searches (query, hit_count, filters_json, page_path, query_id, searched_at)
      SELECT 'query ' || ((i * 7919) % 5000), CASE WHEN i % 10 = 0 THEN 0 ELSE 1 + i % 40 END,
        CASE WHEN i % 3 = 0 THEN '{"topic":["Leadership"]}' ELSE '{}' END, '/search', 's-' || i, ? + i * ? FROM n`,
    events: `WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM n WHERE j < ? - 1)
      INSERT INTO insights_events (event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp)
      SELECT CASE WHEN j % 4 = 0 THEN 'click' WHEN j % 12 = 1 THEN 'conversion' ELSE 'view' END, 'Bench', 'articles',
        'anonymous-' || (j % 5000), '["a' || (j % 300) || '"]', CASE WHEN j % 4 = 0 THEN '[' || (1 + j % 10) || ']' END,
        's-' || ((j * 7) % ?), ? FROM n`,
  },
  postgres: {
    searches: `INSERT INTO site_searches (query, hit_count, filters_json, page_path, query_id, searched_at)
      SELECT 'query ' || ((i * 7919) % 5000), CASE WHEN i % 10 = 0 THEN 0 ELSE 1 + i % 40 END,
        CASE WHEN i % 3 = 0 THEN '{"topic":["Leadership"]}' ELSE '{}' END, '/search', 's-' || i, $2::bigint + i * $3::bigint
      FROM generate_series(0, $1::bigint - 1) AS i`,
    events: `INSERT INTO insights_events (event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp)
      SELECT CASE WHEN j % 4 = 0 THEN 'click' WHEN j % 12 = 1 THEN 'conversion' ELSE 'view' END, 'Bench', 'articles',
        'anonymous-' || (j % 5000), '["a' || (j % 300) || '"]', CASE WHEN j % 4 = 0 THEN '[' || (1 + j % 10) || ']' END,
        's-' || ((j * 7) % $2::bigint), $3::bigint
      FROM generate_series(0, $1::bigint - 1) AS j`,
  },
};

/** Median milliseconds of `runs` calls of `run`. */
async function medianMs(runs: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Fills the store to STORED_EVENTS rows (`raw` runs a statement in the store's own database), then times the report. */
async function benchReport(storage: InsightsStorage, raw: (sql: string, params: unknown[]) => Promise<void>, statements: { searches: string; events: string }, countEvents: () => Promise<void>): Promise<void> {
  const end = Date.now();
  const shape = generatedShape(end);
  const start = process.hrtime.bigint();
  await raw(statements.searches, [shape.searches, shape.start, shape.stepMs]);
  await raw(statements.events, [shape.events, shape.searches, end]);
  console.log(`generated ${STORED_EVENTS.toLocaleString('en')} stored rows (${shape.searches} searches, ${shape.events} events) in ${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s`);
  const app = await buildInsightsService({ storage, editorTokens: [EDITOR_TOKEN], now: () => end });
  const authorization = `Bearer ${EDITOR_TOKEN}`;
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  const render = (query: string) => async () => {
    const response = await app.inject({ method: 'GET', url: `${SEARCH_REPORT_PATH}${query}`, headers: { authorization } });
    if (response.statusCode !== 200) throw new Error(`report answered ${response.statusCode}`);
  };
  const whole = `?from=${day(shape.start)}&to=${day(end)}`;
  const oneDay = `?from=${day(end)}&to=${day(end)}`;
  const report = await medianMs(REPORT_RUNS, render(whole));
  const dayReport = await medianMs(REPORT_RUNS, render(oneDay));
  const count = await medianMs(REPORT_RUNS, countEvents);
  console.log(`${'report, 31 days (every stored row)'.padEnd(48)} ${report.toFixed(0).padStart(8)} ms  (median of ${REPORT_RUNS})`);
  console.log(`${'baseline: the same report, one day'.padEnd(48)} ${dayReport.toFixed(0).padStart(8)} ms`);
  console.log(`${'baseline: COUNT(*) of the events table'.padEnd(48)} ${count.toFixed(0).padStart(8)} ms`);
  await app.close();
}

async function timed(label: string, count: number, run: () => Promise<void>): Promise<void> {
  const start = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${label.padEnd(48)} ${String(Math.round(count / seconds)).padStart(8)} /s  (${count} in ${seconds.toFixed(2)} s)`);
}

async function bench(dialect: string, storage: InsightsStorage): Promise<void> {
  console.log(`\n${dialect}`);
  const now = Date.now();
  const event = (i: number): InsightsEvent => ({ eventType: 'click', eventName: 'Article Opened', index: 'articles', userToken: `anonymous-${i % 500}`, objectIds: [`a${i % 300}`], positions: [1 + (i % 20)], queryId: `s-${i}`, timestamp: now });
  await timed('baseline: insights events, one per call', RECORDS, async () => {
    for (let i = 0; i < RECORDS; i++) await storage.events.store([event(i)]);
  });
  await timed('baseline: insights events, batches of 20', RECORDS, async () => {
    for (let i = 0; i < RECORDS; i += 20) await storage.events.store(Array.from({ length: 20 }, (_, j) => event(i + j)));
  });
  await timed('site-search records (validated), one per call', RECORDS, async () => {
    for (let i = 0; i < RECORDS; i++) {
      const checked = validateSiteSearch({ query: QUERIES[i % QUERIES.length], hitCount: i % 7, filters: i % 3 ? {} : { topic: ['Leadership'] }, page: '/search', queryID: `s-${i}` }, now);
      if (!checked.ok) throw new Error(checked.error);
      await storage.searches.store(checked.search);
    }
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'khs-analytics-bench-'));
try {
  const sqlite = await openInsightsStorage({ dataDir: dir });
  await bench('SQLite (file, opened as the service opens it)', sqlite);
  const sqliteRaw = new Database(path.join(dir, 'insights.sqlite'));
  await benchReport(
    sqlite,
    async (sql, params) => void sqliteRaw.prepare(sql).run(...params),
    GENERATE.sqlite,
    async () => void sqliteRaw.prepare('SELECT COUNT(*) FROM insights_events').get(),
  );
  sqliteRaw.close();
  await sqlite.close();
  if (process.env.DATABASE_URL) {
    const schema = temporaryPostgresSchema(process.env.DATABASE_URL);
    const postgres = await openInsightsStorage({ dataDir: '', databaseUrl: process.env.DATABASE_URL, schema: schema.schema });
    await bench('PostgreSQL', postgres);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, options: `-c search_path=${schema.schema}` });
    await benchReport(
      postgres,
      async (sql, params) => void (await pool.query(sql, params)),
      GENERATE.postgres,
      async () => void (await pool.query('SELECT COUNT(*) FROM insights_events')),
    );
    await pool.end();
    await postgres.close();
    await schema.drop();
  } else {
    console.log('\nPostgreSQL: skipped (no DATABASE_URL)');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
