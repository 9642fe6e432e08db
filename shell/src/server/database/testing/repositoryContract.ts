import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, InsightsEvent } from '../types.js';

/** How to get a fresh, empty database for the contract suite, and how to dispose of it. */
export interface ContractTarget {
  open(): Promise<Database>;
  /** Called after `close()`: remove files / schemas. */
  dispose?(): Promise<void>;
}

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

/** The behaviour every `Database` implementation must have (run once per dialect). */
export function describeRepositoryContract(label: string, target: ContractTarget): void {
  describe(`${label}: repository contract`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await target.open();
    });
    afterAll(async () => {
      await db?.close();
      await target.dispose?.();
    });

    describe('insights events', () => {
      it('stores batches and counts them', async () => {
        const before = await db.insightsEvents.count();
        expect(await db.insightsEvents.store([event(), event({ eventType: 'view', positions: undefined, queryId: undefined })])).toBe(2);
        expect(await db.insightsEvents.store([])).toBe(0);
        expect(await db.insightsEvents.count()).toBe(before + 2);
      });

      it('stores a large batch (1,500 events) in one call', async () => {
        const before = await db.insightsEvents.count();
        const batch = Array.from({ length: 1500 }, (_, i) => event({ objectIds: [`o${i}`], eventType: 'conversion' }));
        expect(await db.insightsEvents.store(batch)).toBe(1500);
        expect(await db.insightsEvents.count()).toBe(before + 1500);
      });

      it('refuses a timestamp that is not a positive 64-bit integer (the column keeps its type)', async () => {
        const before = await db.insightsEvents.count();
        await expect(db.insightsEvents.store([event({ timestamp: 1e300 })])).rejects.toThrow();
        await expect(db.insightsEvents.store([event({ timestamp: -5 })])).rejects.toThrow();
        expect(await db.insightsEvents.count()).toBe(before);
      });

      it('stores nothing of a batch containing an invalid event', async () => {
        const before = await db.insightsEvents.count();
        const invalid = event({ eventType: 'purchase' as InsightsEvent['eventType'] });
        await expect(db.insightsEvents.store([event(), invalid])).rejects.toThrow();
        expect(await db.insightsEvents.count()).toBe(before);
      });
    });

    describe('rate-limit counters', () => {
      it('counts hits per key within a window and tells how long the window runs', async () => {
        const first = await db.rateLimitCounters.hit('contract:a', 60_000);
        expect(first.hits).toBe(1);
        expect(first.msLeft).toBeGreaterThan(50_000);
        expect(first.msLeft).toBeLessThanOrEqual(60_000);
        expect((await db.rateLimitCounters.hit('contract:a', 60_000)).hits).toBe(2);
        expect((await db.rateLimitCounters.hit('contract:b', 60_000)).hits).toBe(1);
      });

      it('starts a new window once the last one ended, and purges ended windows', async () => {
        await db.rateLimitCounters.hit('contract:short', 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await db.rateLimitCounters.hit('contract:short', 60_000)).hits).toBe(1);
        await db.rateLimitCounters.hit('contract:gone', 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await db.rateLimitCounters.purgeExpired()).toBeGreaterThanOrEqual(1);
        expect((await db.rateLimitCounters.hit('contract:gone', 60_000)).hits).toBe(1);
      });

      it('counts 100 parallel hits on one key exactly', async () => {
        const results = await Promise.all(Array.from({ length: 100 }, () => db.rateLimitCounters.hit('contract:parallel', 60_000)));
        expect(results.map((result) => result.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      });
    });

  });
}
