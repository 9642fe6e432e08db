// The island-failure store: one contract, run against this process's memory and against
// PostgreSQL (where two stores on one database stand for two shell instances).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '@khs/team-service';
import { POSTGRES_MIGRATIONS } from '../database/migrations.js';
import { PostgresIslandFailureStore } from './postgresIslandFailureStore.js';
import { IslandFailureCounts, MAX_VERSIONS_PER_REMOTE, type IslandFailureStore } from './islandFailureCounts.js';
import { createTemporaryPostgresSchema, POSTGRES_TESTS_SKIPPED_MESSAGE, type TemporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';

const WINDOW_MS = 15 * 60_000;
const BUCKET_MS = 60_000;

interface StoreTarget {
  /** Two stores that count into the same place (two instances), on a clock the test moves. */
  open(now: () => number): Promise<{ first: IslandFailureStore; second: IslandFailureStore; shared: boolean }>;
  dispose(): Promise<void>;
}

function describeIslandFailureStoreContract(label: string, target: StoreTarget): void {
  describe(`${label}: island failure store contract`, () => {
    let clock = Date.UTC(2026, 10, 26, 1, 0, 0);
    let first: IslandFailureStore;
    let second: IslandFailureStore;
    let shared: boolean;
    beforeAll(async () => {
      ({ first, second, shared } = await target.open(() => clock));
    });
    afterAll(async () => {
      await first?.close();
      await second?.close();
      await target.dispose();
    });

    it('counts failures by remote, source, code and reported build, and page views by build', async () => {
      first.recordFailure({ remote: 'mf-search', source: 'browser', code: 'KHS-ISLAND-002', version: '0.1.0+aaa' });
      first.recordFailure({ remote: 'mf-search', source: 'browser', code: 'KHS-ISLAND-002', version: '0.1.0+aaa' });
      first.recordFailure({ remote: 'mf-search', source: 'browser', code: 'KHS-ISLAND-003' });
      first.recordFailure({ remote: 'mf-search', source: 'server', code: 'KHS-ISLAND-008', version: '0.1.0+bbb' });
      first.recordFailure({ remote: 'mf-survey', source: 'server', code: 'KHS-ISLAND-001' });
      for (let view = 0; view < 5; view++) first.recordView('mf-search', '0.1.0+aaa');
      first.recordView('mf-search', '0.1.0+bbb');
      const counts = await first.recentAll(['mf-search', 'mf-survey', 'mf-widgets']);
      expect(counts['mf-search']).toEqual({
        total: 4,
        browser: { 'KHS-ISLAND-002': 2, 'KHS-ISLAND-003': 1 },
        server: { 'KHS-ISLAND-008': 1 },
        browserVersions: { '0.1.0+aaa': 2, unknown: 1 },
        serverVersions: { '0.1.0+bbb': 1 },
        views: { '0.1.0+aaa': 5, '0.1.0+bbb': 1 },
      });
      expect(counts['mf-survey']).toMatchObject({ total: 1, server: { 'KHS-ISLAND-001': 1 }, serverVersions: {} });
      expect(counts['mf-widgets']).toEqual({ total: 0, browser: {}, server: {}, browserVersions: {}, serverVersions: {}, views: {} });
    });

    it('sees another instance’s counts only when the store is shared', async () => {
      second.recordFailure({ remote: 'mf-search', source: 'server', code: 'KHS-ISLAND-008' });
      second.recordView('mf-search', '0.1.0+aaa');
      const seenByFirst = (await first.recentAll(['mf-search']))['mf-search']!;
      // Both read a flushed view: the second store's write is visible once it flushed (reading flushes).
      await second.recentAll(['mf-search']);
      const again = (await first.recentAll(['mf-search']))['mf-search']!;
      if (shared) {
        expect(again.server['KHS-ISLAND-008']).toBe(2);
        expect(again.views['0.1.0+aaa']).toBe(6);
      } else {
        expect(seenByFirst.server['KHS-ISLAND-008']).toBe(1);
        expect(again.views['0.1.0+aaa']).toBe(5);
      }
    });

    it(`tells at most ${MAX_VERSIONS_PER_REMOTE} reported builds apart, the rest as "other"`, async () => {
      for (let version = 0; version < MAX_VERSIONS_PER_REMOTE + 3; version++) {
        first.recordFailure({ remote: 'mf-widgets', source: 'browser', code: 'KHS-ISLAND-002', version: `forged-${version}` });
      }
      const versions = (await first.recentAll(['mf-widgets']))['mf-widgets']!.browserVersions;
      expect(Object.keys(versions).length).toBeLessThanOrEqual(MAX_VERSIONS_PER_REMOTE + 1);
      expect(Object.values(versions).reduce((sum, count) => sum + count, 0)).toBe(MAX_VERSIONS_PER_REMOTE + 3);
      expect(versions.other).toBeGreaterThanOrEqual(3);
    });

    it('forgets counts once they left the window', async () => {
      clock += WINDOW_MS - BUCKET_MS;
      expect((await first.recentAll(['mf-survey']))['mf-survey']!.total).toBe(1);
      clock += 3 * BUCKET_MS;
      const later = (await first.recentAll(['mf-search', 'mf-survey']));
      expect(later['mf-survey']!.total).toBe(0);
      expect(later['mf-search']!.views).toEqual({});
    });
  });
}

describeIslandFailureStoreContract('memory', {
  async open(now) {
    return { first: new IslandFailureCounts({ now }), second: new IslandFailureCounts({ now }), shared: false };
  },
  async dispose() {},
});

const baseUrl = testDatabaseUrl();
if (!baseUrl) {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
  describe.skip('PostgreSQL island failure store (no TEST_DATABASE_URL / DATABASE_URL)', () => {
    it('contract', () => undefined);
  });
} else {
  let schema: TemporaryPostgresSchema;
  const pools: pg.Pool[] = [];
  describeIslandFailureStoreContract('PostgreSQL', {
    async open(now) {
      schema = await createTemporaryPostgresSchema(baseUrl);
      const pool = () => {
        const created = new pg.Pool({ connectionString: schema.url, max: 2 });
        pools.push(created);
        return created;
      };
      const firstPool = pool();
      await migratePostgres(firstPool, schema.schema, POSTGRES_MIGRATIONS);
      // A long flush interval: the contract checks that reading flushes, not the timer.
      const options = { now, flushIntervalMs: 60_000 };
      return { first: new PostgresIslandFailureStore(firstPool, options), second: new PostgresIslandFailureStore(pool(), options), shared: true };
    },
    async dispose() {
      await Promise.all(pools.map((pool) => pool.end()));
      await schema?.drop();
    },
  });

  describe('PostgreSQL island failure store: a database that is away', () => {
    it('keeps the counts buffered and writes them at the next flush', async () => {
      const away = await createTemporaryPostgresSchema(baseUrl);
      const pool = new pg.Pool({ connectionString: away.url, max: 1 });
      const errors: string[] = [];
      const store = new PostgresIslandFailureStore(pool, { flushIntervalMs: 60_000, onError: (error) => errors.push(error.message) });
      try {
        store.recordFailure({ remote: 'mf-search', source: 'server', code: 'KHS-ISLAND-008' });
        // No table yet: the write fails, the count stays.
        await expect(store.flush()).rejects.toThrow();
        expect(errors).toHaveLength(1);
        await migratePostgres(pool, away.schema, POSTGRES_MIGRATIONS);
        expect((await store.recentAll(['mf-search']))['mf-search']!.server).toEqual({ 'KHS-ISLAND-008': 1 });
      } finally {
        await store.close().catch(() => undefined);
        await pool.end();
        await away.drop();
      }
    });
  });
}
