import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsightsStorage, type InsightsStorage } from './openInsightsStorage.js';

const NOW = Date.UTC(2026, 11, 6, 10);

/** The behaviour both dialects' re-ranking repositories must have. */
function describeRerankRepository(label: string, open: () => Promise<InsightsStorage>, dispose: () => Promise<void>) {
  describe(`re-ranking repository (${label})`, () => {
    let storage: InsightsStorage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
      await dispose();
    });

    it("reads each visitor's picks with the query of the search they came from: only searches recorded (tracking consent), within the window, of the index, clicks and saves", async () => {
      const search = (queryId: string, query: string, searchedAt = NOW - 60_000) => storage.searches.store({ query, hitCount: 9, filters: {}, page: '/search', queryId, searchedAt });
      await search('s-1', 'teamwork');
      await search('s-2', 'kpi');
      await search('s-old', 'teamwork', NOW - 40 * 86_400_000);
      const event = (eventType: 'click' | 'view' | 'conversion', queryId: string, userToken: string, objectIds: string[], index = 'articles', timestamp = NOW - 30_000) => ({
        eventType,
        eventName: 'x',
        index,
        userToken,
        objectIds,
        queryId,
        timestamp,
      });
      await storage.events.store([
        event('click', 's-1', 'u1', ['a']),
        event('click', 's-1', 'u1', ['a']),
        event('conversion', 's-1', 'u1', ['a']),
        event('click', 's-2', 'u2', ['b', 'c']),
        event('view', 's-1', 'u3', ['z']),
        event('click', 's-untracked', 'u4', ['a']),
        event('click', 's-1', 'u5', ['a'], 'other-index'),
        event('click', 's-old', 'u6', ['a'], 'articles', NOW - 40 * 86_400_000),
      ]);
      const picks = await storage.reranking.picks('articles', NOW - 30 * 86_400_000);
      const sorted = picks.map((pick) => `${pick.query}|${pick.userToken}|${pick.articleIds.join(',')}`).sort();
      // Repeats of one visitor's pick come back once.
      expect(sorted).toEqual(['kpi|u2|b,c', 'teamwork|u1|a']);
    });

    it('keeps the switched-off queries (switching off twice keeps the first time; on removes it)', async () => {
      await storage.reranking.switchOff('teamwork', NOW);
      await storage.reranking.switchOff('teamwork', NOW + 5);
      await storage.reranking.switchOff('kpi', NOW + 10);
      expect(await storage.reranking.switchedOff()).toEqual(new Map([['teamwork', NOW], ['kpi', NOW + 10]]));
      await storage.reranking.switchOn('teamwork');
      await storage.reranking.switchOn('never-off');
      expect(await storage.reranking.switchedOff()).toEqual(new Map([['kpi', NOW + 10]]));
      await expect(storage.reranking.switchOff('x'.repeat(257), NOW)).rejects.toThrow();
    });
  });
}

let dir = '';
describeRerankRepository(
  'SQLite',
  async () => openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-rerank-storage-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeRerankRepository('PostgreSQL', () => openInsightsStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
