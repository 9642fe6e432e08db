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

    describe('sliding-window rate-limit logs', () => {
      const windows = [{ max: 3, windowMs: 60_000 }];
      it('accepts up to max in the window per key, then refuses with the time until the oldest leaves', async () => {
        const taken = [];
        for (let i = 0; i < 4; i += 1) taken.push(await db.rateLimitLogs.take('contract:log:a', windows));
        expect(taken.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
        expect(taken[3]!.retryAfterMs).toBeGreaterThan(50_000);
        expect(taken[3]!.retryAfterMs).toBeLessThanOrEqual(60_000);
        expect((await db.rateLimitLogs.take('contract:log:b', windows)).allowed).toBe(true);
      });

      it('decides 20 parallel requests on one key one at a time: exactly max accepted', async () => {
        const decisions = await Promise.all(Array.from({ length: 20 }, () => db.rateLimitLogs.take('contract:log:parallel', windows)));
        expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
      });

      it('accepts again once the window passed, and purges logs whose times all left', async () => {
        const short = [{ max: 1, windowMs: 1 }];
        expect((await db.rateLimitLogs.take('contract:log:short', short)).allowed).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await db.rateLimitLogs.take('contract:log:short', short)).allowed).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await db.rateLimitLogs.purgeExpired()).toBeGreaterThanOrEqual(1);
      });
    });

  });
}
