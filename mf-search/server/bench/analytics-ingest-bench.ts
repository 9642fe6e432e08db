// Ingestion into the search service's analytics store: site-search records (one per call, as the
// route stores them) next to the baseline of insights events (one per call and in batches of 20,
// as the collector stores them), same run, same storage. SQLite always; PostgreSQL with DATABASE_URL.
// Bounded: BENCH_RECORDS (default 20,000) of each. Run: npm run bench:analytics -w mf-search
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { temporaryPostgresSchema } from '@khs/team-service/testing';
import type { InsightsEvent } from '../src/storage/insightsEventRepository.js';
import { openInsightsStorage, type InsightsStorage } from '../src/storage/openInsightsStorage.js';
import { validateSiteSearch } from '../src/validateSiteSearch.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 20_000);
const QUERIES = ['lead', 'kpi', 'feedback', 'team', 'onboarding', 'xyzzy'];

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
  await sqlite.close();
  if (process.env.DATABASE_URL) {
    const schema = temporaryPostgresSchema(process.env.DATABASE_URL);
    const postgres = await openInsightsStorage({ dataDir: '', databaseUrl: process.env.DATABASE_URL, schema: schema.schema });
    await bench('PostgreSQL', postgres);
    await postgres.close();
    await schema.drop();
  } else {
    console.log('\nPostgreSQL: skipped (no DATABASE_URL)');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
