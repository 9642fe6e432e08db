// Popularity ingest benchmark (prints figures, asserts nothing): events ingested per second into the
// insights store through the collector call (`POST /api/insights/events`, 50 events a request, as
// `app.inject`), with popularity off (the baseline) and on (the updater started for the run — its
// first refresh, which reads every stored event within the horizon, is awaited and timed apart —
// then refreshing against the embedded
// search server every BENCH_REFRESH_MS: 1 s by default, 60 times as often as the default
// SEARCH_POPULARITY_REFRESH_SECONDS, while events stream in at full speed: a worst case), in the same run, off and on
// alternating for BENCH_ROUNDS rounds; the store holds BENCH_PREFILL older events first (what each
// refresh reads). SQLite always; PostgreSQL too with BENCH_DATABASE_URL (tooling/local-postgres).
// Run: npm run bench:popularity -w mf-search
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSearchServer } from '@khs/search-engine';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { temporaryPostgresSchema } from '@khs/team-service/testing';
import { buildInsightsService } from '../src/buildInsightsService.js';
import { collectionSchema } from '../src/indexing/articleCollectionSchema.js';
import { DEFAULT_POPULARITY_SETTINGS } from '../src/popularity/popularitySettings.js';
import { startPopularityUpdater } from '../src/popularity/popularityUpdater.js';
import type { InsightsEvent } from '../src/storage/insightsEventRepository.js';
import { openInsightsStorage, type InsightsStorage } from '../src/storage/openInsightsStorage.js';

const PREFILL = Number(process.env.BENCH_PREFILL ?? 100_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REFRESH_MS = Number(process.env.BENCH_REFRESH_MS ?? 1000);
const ARTICLES = 500;
const BATCH = 50;
const ADMIN = 'bench-admin-key';
const COLLECTION = 'bench-articles';

/** A click or conversion of one of 5,000 visitors on one of ARTICLES articles, `ageMs` old. */
function benchEvent(i: number, ageMs: number): InsightsEvent {
  const conversion = i % 5 === 0;
  return {
    eventType: conversion ? 'conversion' : 'click',
    eventName: conversion ? 'Article Saved' : 'Article Opened',
    index: COLLECTION,
    userToken: `anonymous-${i % 5000}`,
    objectIds: [`article-${(i * 7919) % ARTICLES}`],
    ...(conversion ? {} : { positions: [1 + (i % 20)] }),
    queryId: `q-${i % 997}`,
    timestamp: Date.now() - ageMs,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchStore(label: string, storage: InsightsStorage, searchUrl: string): Promise<void> {
  for (let start = 0; start < PREFILL; start += 1000) {
    await storage.events.store(Array.from({ length: Math.min(1000, PREFILL - start) }, (_, i) => benchEvent(start + i, ((start + i) % (3 * 86_400_000)))));
  }
  const app = await buildInsightsService({ storage });
  const target = { nodes: [searchNodeFromUrl(searchUrl)!], apiKey: ADMIN, collectionName: COLLECTION };
  let sent = 0;
  const ingest = async (): Promise<number> => {
    const started = performance.now();
    for (let start = 0; start < EVENTS; start += BATCH) {
      const events = Array.from({ length: BATCH }, (_, i) => benchEvent(sent + i, 1000));
      sent += BATCH;
      const body = { events: events.map(({ objectIds, queryId, ...rest }) => ({ ...rest, objectIDs: objectIds, queryID: queryId })) };
      const response = await app.inject({ method: 'POST', url: '/api/insights/events', payload: body });
      if (response.statusCode !== 200) throw new Error(`collector answered ${response.statusCode}: ${response.body}`);
    }
    return EVENTS / ((performance.now() - started) / 1000);
  };
  const off: number[] = [];
  const on: number[] = [];
  let storeReads = 0;
  const firstRefreshMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    off.push(await ingest());
    const updater = startPopularityUpdater({
      target,
      events: { behaviourSince: async (index, since, afterId, limit) => { storeReads++; return storage.events.behaviourSince(index, since, afterId, limit); } },
      settings: DEFAULT_POPULARITY_SETTINGS,
      refreshMs: REFRESH_MS,
      log: (message) => console.log(`  [popularity] ${message}`),
    });
    // Steady state: the first refresh (a full read, once at the service's start) is timed apart.
    const firstStarted = performance.now();
    await updater.idle();
    firstRefreshMs.push(performance.now() - firstStarted);
    on.push(await ingest());
    await updater.close();
  }
  await app.close();
  const stored = await storage.events.count();
  const refreshStarted = performance.now();
  const events = await storage.events.behaviourSince(COLLECTION, 0);
  const readMs = performance.now() - refreshStarted;
  console.log(`${label}: ${stored} events stored at the end; one refresh's read of ${events.length} clicks/conversions: ${readMs.toFixed(0)} ms`);
  console.log(`  popularity off (baseline): ${median(off).toFixed(0)} events/s  (rounds: ${off.map((v) => v.toFixed(0)).join(', ')})`);
  console.log(`  popularity on:             ${median(on).toFixed(0)} events/s  (rounds: ${on.map((v) => v.toFixed(0)).join(', ')}; ${storeReads} store reads by the updater, refreshing every ${REFRESH_MS} ms)`);
  console.log(`  on / off: ${(median(on) / median(off)).toFixed(2)}; the updater's first refresh (full read, at start): ${median(firstRefreshMs).toFixed(0)} ms`);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-popularity-bench-'));
const server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [], dataDir: path.join(dataDir, 'search') });
try {
  await fetch(`${server.url}/collections`, { method: 'POST', headers: { 'x-typesense-api-key': ADMIN }, body: JSON.stringify(collectionSchema(COLLECTION)) });
  const documents = Array.from({ length: ARTICLES }, (_, i) =>
    JSON.stringify({ id: `article-${i}`, headline: `Artikel ${i}`, title: `Artikel ${i}`, intro: 'Intro', content: 'Text', image: '/i.png', url: `/articles/${i}`, cta: 'Lesen', topic: ['Bench'], date: 1_700_000_000 + i, readingTime: 3, popularity: 0 }),
  );
  await fetch(`${server.url}/collections/${COLLECTION}/documents/import?action=create`, { method: 'POST', headers: { 'x-typesense-api-key': ADMIN }, body: documents.join('\n') });
  console.log(`popularity ingest bench: ${PREFILL} events prefilled, ${EVENTS} ingested per run (requests of ${BATCH}), ${ROUNDS} rounds of off then on, ${ARTICLES} articles`);
  const sqlite = await openInsightsStorage({ dataDir });
  try {
    await benchStore('SQLite', sqlite, server.url);
  } finally {
    await sqlite.close();
  }
  const databaseUrl = process.env.BENCH_DATABASE_URL?.trim();
  if (databaseUrl) {
    const schema = temporaryPostgresSchema(databaseUrl);
    const postgres = await openInsightsStorage({ dataDir: '', databaseUrl, schema: schema.schema });
    try {
      await benchStore('PostgreSQL', postgres, server.url);
    } finally {
      await postgres.close();
      await schema.drop();
    }
  } else {
    console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL, e.g. from tooling/local-postgres/start.sh)');
  }
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
