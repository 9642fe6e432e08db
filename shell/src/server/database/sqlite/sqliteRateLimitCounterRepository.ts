import type BetterSqlite3 from 'better-sqlite3';
import type { RateLimitCounterRepository } from '../types.js';

/** How often expired counters are deleted, at most (ms). */
const PURGE_INTERVAL_MS = 60_000;

/**
 * Rate-limit counters in SQLite: one upsert per hit (the file is shared by every process on
 * the machine). The window is decided in the same statement, so parallel hits cannot both
 * start a window.
 */
export function sqliteRateLimitCounterRepository(db: BetterSqlite3.Database, clock: () => number = Date.now): RateLimitCounterRepository {
  const upsert = db.prepare(`INSERT INTO rate_limit_counters (key, hits, window_ends_at) VALUES (:key, 1, :now + :window)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN rate_limit_counters.window_ends_at <= :now THEN 1 ELSE rate_limit_counters.hits + 1 END,
      window_ends_at = CASE WHEN rate_limit_counters.window_ends_at <= :now THEN :now + :window ELSE rate_limit_counters.window_ends_at END
    RETURNING hits, window_ends_at`);
  const purge = db.prepare('DELETE FROM rate_limit_counters WHERE window_ends_at <= ?');
  let lastPurge = 0;
  const purgeExpired = (now: number) => {
    lastPurge = now;
    return purge.run(now).changes;
  };
  return {
    async hit(key, windowMs) {
      const now = clock();
      if (now - lastPurge > PURGE_INTERVAL_MS) purgeExpired(now);
      const row = upsert.get({ key, now, window: Math.max(1, Math.trunc(windowMs)) }) as { hits: number; window_ends_at: number };
      return { hits: row.hits, msLeft: Math.max(0, row.window_ends_at - now) };
    },
    async purgeExpired() {
      return purgeExpired(clock());
    },
  };
}
