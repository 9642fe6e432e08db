import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../types.js';

/** How to get a fresh, empty database for the contract suite, and how to dispose of it. */
export interface ContractTarget {
  open(): Promise<Database>;
  /** Called after `close()`: remove files / schemas. */
  dispose?(): Promise<void>;
}


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
