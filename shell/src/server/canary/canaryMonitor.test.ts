// The automatic end: the monitor over the shared counts and the shared record of ends — run against
// memory, and against PostgreSQL where two instances (two monitors, two stores) share one database.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '@khs/team-service';
import { createTemporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { POSTGRES_MIGRATIONS } from '../database/migrations.js';
import { IslandFailureCounts, type IslandFailureStore } from '../islandFailures/islandFailureCounts.js';
import { PostgresIslandFailureStore } from '../islandFailures/postgresIslandFailureStore.js';
import { CanaryMonitor } from './canaryMonitor.js';
import { MemoryCanaryEndStore, PostgresCanaryEndStore, type CanaryEndStore } from './canaryEndStore.js';
import { canarySelectionPlugin, VISITOR_COOKIE, newVisitorId } from './canarySelectionPlugin.js';
import { LIVE_CHOICE, type SelectionContext } from '../federation/versionSelection.js';
import type { Rollout } from './rollout.js';

const ROLLOUT: Rollout = { stable: '1.0.0+aaaa', canary: { version: '1.1.0+bbbb', share: 0.5, startedAt: '2026-11-26T03:00:00.000Z' }, ended: null };
const rolloutOf = (remote: string) => (remote === 'mf-search' ? ROLLOUT : null);

/** `views` page views of `version`, `failed` of them with a hydration mismatch. */
function traffic(store: IslandFailureStore, version: string, views: number, failed: number): void {
  for (let view = 0; view < views; view++) store.recordView('mf-search', version);
  for (let failure = 0; failure < failed; failure++) store.recordFailure({ remote: 'mf-search', source: 'browser', code: 'KHS-ISLAND-010', version });
}

const visitorContext = (id: string): SelectionContext => ({ cookies: { [VISITOR_COOKIE]: id }, headers: {}, url: '/', now: 0, setCookie: () => {} });

describe('CanaryMonitor (one machine, memory)', () => {
  it('does nothing without a canary or while the canary is healthy', async () => {
    const counts = new IslandFailureCounts();
    const ends = new MemoryCanaryEndStore();
    const lines: string[] = [];
    traffic(counts, '1.0.0+aaaa', 30, 1);
    traffic(counts, '1.1.0+bbbb', 30, 1);
    const monitor = new CanaryMonitor({ remotes: ['mf-search', 'mf-survey'], rolloutOf, counts, ends, log: (line) => lines.push(line) });
    expect(await monitor.evaluate()).toEqual([]);
    expect(monitor.verdicts.get('mf-search')).toMatchObject({ decision: 'continue', version: '1.1.0+bbbb' });
    expect(ends.hasEnded('mf-search', '1.1.0+bbbb')).toBe(false);
    expect(lines).toEqual([]);
  });

  it('ends a clearly worse canary once: records it, logs one line, and the selection plugin sends everyone to stable', async () => {
    const counts = new IslandFailureCounts();
    const ends = new MemoryCanaryEndStore();
    const lines: string[] = [];
    const monitor = new CanaryMonitor({ remotes: ['mf-search'], rolloutOf, counts, ends, log: (line) => lines.push(line), now: () => Date.UTC(2026, 10, 26, 3, 5) });
    const plugin = canarySelectionPlugin({ rolloutOf, hasEnded: (remote, version) => ends.hasEnded(remote, version) });
    const visitors = Array.from({ length: 60 }, () => newVisitorId());
    const sides = () => visitors.map((id) => plugin.select(visitorContext(id), 'mf-search', LIVE_CHOICE).reason);
    expect(sides()).toContain('canary');
    traffic(counts, '1.0.0+aaaa', 20, 0);
    traffic(counts, '1.1.0+bbbb', 20, 20);
    const [end] = await monitor.evaluate();
    expect(end).toEqual({ remote: 'mf-search', version: '1.1.0+bbbb', reason: expect.stringMatching(/^canary fails 100\.0 % of 20 views, stable 0\.0 % of 20: worse/), at: '2026-11-26T03:05:00.000Z' });
    expect(lines).toEqual([`[shell] canary of "mf-search" 1.1.0+bbbb ended (rolled back to 1.0.0+aaaa for every visitor): ${end!.reason}`]);
    expect(new Set(sides())).toEqual(new Set(['live']));
    // Later runs leave an ended canary alone (no second line).
    traffic(counts, '1.1.0+bbbb', 20, 20);
    expect(await monitor.evaluate()).toEqual([]);
    expect(lines).toHaveLength(1);
  });

  it('runs soon after reports arrive, once for a burst (debounced)', async () => {
    const counts = new IslandFailureCounts();
    let reads = 0;
    const counting: IslandFailureStore = { ...counts, windowMs: counts.windowMs, recordFailure: () => {}, recordView: () => {}, close: async () => {}, recentAll: (remotes) => (reads++, counts.recentAll(remotes)) };
    const monitor = new CanaryMonitor({ remotes: ['mf-search'], rolloutOf, counts: counting, ends: new MemoryCanaryEndStore(), debounceMs: 20 });
    for (let report = 0; report < 10; report++) monitor.notify();
    await expect.poll(() => reads, { timeout: 5000 }).toBe(1);
    monitor.notify();
    await expect.poll(() => reads, { timeout: 5000 }).toBe(2);
    monitor.stop();
  });
});

const baseUrl = testDatabaseUrl();
describe.skipIf(!baseUrl)('CanaryMonitor with two instances on PostgreSQL', () => {
  const pools: pg.Pool[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('both see every count, the first to decide records the end, and the other stops assigning within its refresh', async () => {
    const schema = await createTemporaryPostgresSchema(baseUrl!);
    closers.push(() => schema.drop());
    const pool = () => {
      const created = new pg.Pool({ connectionString: schema.url, max: 2 });
      pools.push(created);
      return created;
    };
    const firstPool = pool();
    await migratePostgres(firstPool, schema.schema, POSTGRES_MIGRATIONS);
    const instance = (poolOfInstance: pg.Pool) => {
      const counts = new PostgresIslandFailureStore(poolOfInstance, { flushIntervalMs: 60_000 });
      const ends: CanaryEndStore = new PostgresCanaryEndStore(poolOfInstance, { refreshIntervalMs: 50 });
      closers.push(() => counts.close(), () => ends.close());
      const lines: string[] = [];
      const monitor = new CanaryMonitor({ remotes: ['mf-search'], rolloutOf, counts, ends, log: (line) => lines.push(line) });
      return { counts, ends, lines, monitor, plugin: canarySelectionPlugin({ rolloutOf, hasEnded: (remote, version) => ends.hasEnded(remote, version) }) };
    };
    const one = instance(firstPool);
    const two = instance(pool());
    // Half the traffic reaches each instance: neither alone has the minimum of canary views.
    traffic(one.counts, '1.0.0+aaaa', 10, 0);
    traffic(one.counts, '1.1.0+bbbb', 10, 10);
    traffic(two.counts, '1.0.0+aaaa', 10, 0);
    traffic(two.counts, '1.1.0+bbbb', 10, 10);
    await (two.counts as PostgresIslandFailureStore).flush();
    const [end] = await one.monitor.evaluate();
    expect(end).toMatchObject({ remote: 'mf-search', version: '1.1.0+bbbb', reason: expect.stringContaining('of 20 views') });
    expect(one.lines).toHaveLength(1);
    await expect.poll(() => two.ends.hasEnded('mf-search', '1.1.0+bbbb'), { timeout: 5000 }).toBe(true);
    expect(two.ends.endOf('mf-search', '1.1.0+bbbb')).toEqual(end);
    const visitors = Array.from({ length: 40 }, () => newVisitorId());
    expect(new Set(visitors.map((id) => two.plugin.select(visitorContext(id), 'mf-search', LIVE_CHOICE).reason))).toEqual(new Set(['live']));
    // The second instance's rule would end it too: the first decision stays, no second line.
    expect(await two.monitor.evaluate()).toEqual([]);
    expect((await two.ends.recordEnd({ ...end!, reason: 'another reason' })).end.reason).toBe(end!.reason);
    expect(two.lines).toEqual([]);
  });
});
