import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsightsEvent } from './insightsEventRepository.js';
import { openInsightsStorage, type InsightsStorage } from './openInsightsStorage.js';

const event = (overrides: Partial<InsightsEvent> = {}): InsightsEvent => ({
  eventType: 'click',
  eventName: 'Hit Clicked',
  index: 'competence-articles',
  userToken: 'anonymous-abc',
  objectIds: ['a1'],
  positions: [1],
  queryId: 'q1',
  timestamp: 1_763_000_000_000,
  ...overrides,
});

/** The behaviour both dialects' event repositories must have. */
function describeEventRepository(label: string, open: () => Promise<InsightsStorage>, dispose: () => Promise<void>) {
  describe(`insights event repository (${label})`, () => {
    let storage: InsightsStorage;
    beforeAll(async () => {
      storage = await open();
    });
    afterAll(async () => {
      await storage?.close();
      await dispose();
    });

      it('stores batches and counts them', async () => {
        const before = await storage.events.count();
        expect(await storage.events.store([event(), event({ eventType: 'view', positions: undefined, queryId: undefined })])).toBe(2);
        expect(await storage.events.store([])).toBe(0);
        expect(await storage.events.count()).toBe(before + 2);
      });

      it('stores a large batch (1,500 events) in one call', async () => {
        const before = await storage.events.count();
        const batch = Array.from({ length: 1500 }, (_, i) => event({ objectIds: [`o${i}`], eventType: 'conversion' }));
        expect(await storage.events.store(batch)).toBe(1500);
        expect(await storage.events.count()).toBe(before + 1500);
      });

      it('refuses a timestamp that is not a positive 64-bit integer (the column keeps its type)', async () => {
        const before = await storage.events.count();
        await expect(storage.events.store([event({ timestamp: 1e300 })])).rejects.toThrow();
        await expect(storage.events.store([event({ timestamp: -5 })])).rejects.toThrow();
        expect(await storage.events.count()).toBe(before);
      });

      it('reads back the clicks and conversions of one index since a time, in storing order (popularity)', async () => {
        const index = `behaviour-${label}`;
        await storage.events.store([
          event({ index, eventType: 'conversion', userToken: 'u2', objectIds: ['b'], timestamp: 3000 }),
          event({ index, eventType: 'click', userToken: 'u1', objectIds: ['a', 'b'], timestamp: 2000 }),
          event({ index, eventType: 'view', objectIds: ['c'], timestamp: 2500 }),
          event({ index, eventType: 'click', objectIds: ['old'], timestamp: 999 }),
          event({ index: `${index}-other`, eventType: 'click', objectIds: ['x'], timestamp: 2000 }),
        ]);
        const read = await storage.events.behaviourSince(index, 1000);
        expect(read).toEqual([
          expect.objectContaining({ eventType: 'conversion', userToken: 'u2', objectIds: ['b'], timestamp: 3000 }),
          expect.objectContaining({ eventType: 'click', userToken: 'u1', objectIds: ['a', 'b'], timestamp: 2000 }),
        ]);
        // Read on after the last row seen: only what was stored after it.
        expect(await storage.events.behaviourSince(index, 1000, read[0]!.id)).toEqual([read[1]]);
        expect(await storage.events.behaviourSince(index, 1000, read[1]!.id)).toEqual([]);
        expect(await storage.events.behaviourSince(index, 1000, 0, 1)).toEqual([read[0]]);
      });

      it('stores nothing of a batch containing an invalid event', async () => {
        const before = await storage.events.count();
        const invalid = event({ eventType: 'purchase' as InsightsEvent['eventType'] });
        await expect(storage.events.store([event(), invalid])).rejects.toThrow();
        expect(await storage.events.count()).toBe(before);
      });
  });
}

let dir = '';
describeEventRepository(
  'SQLite',
  async () => openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-insights-storage-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeEventRepository('PostgreSQL', () => openInsightsStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
