import type BetterSqlite3 from 'better-sqlite3';
import { decideSlidingWindows, logExpiry, type RateLimitLogRepository } from '../../slidingWindows/slidingWindows.js';

/** How often expired logs are deleted, at most (ms). */
const PURGE_INTERVAL_MS = 60_000;

/**
 * Sliding-window logs in SQLite (`rate_limit_logs`: the accepted times of a key as a JSON array).
 * Read, decide and write run in one `BEGIN IMMEDIATE` transaction, so processes sharing the file
 * decide one request at a time per key.
 */
export function sqliteRateLimitLogRepository(db: BetterSqlite3.Database, clock: () => number = Date.now): RateLimitLogRepository {
  const read = db.prepare('SELECT times FROM rate_limit_logs WHERE key = ?');
  const write = db.prepare(`INSERT INTO rate_limit_logs (key, times, expires_at) VALUES (:key, :times, :expiresAt)
    ON CONFLICT (key) DO UPDATE SET times = excluded.times, expires_at = excluded.expires_at`);
  const purge = db.prepare('DELETE FROM rate_limit_logs WHERE expires_at <= ?');
  let lastPurge = 0;
  const purgeExpired = (now: number) => {
    lastPurge = now;
    return purge.run(now).changes;
  };
  const take = db.transaction((key: string, windows: Parameters<RateLimitLogRepository['take']>[1]) => {
    const now = clock();
    if (now - lastPurge > PURGE_INTERVAL_MS) purgeExpired(now);
    const row = read.get(key) as { times: string } | undefined;
    const decision = decideSlidingWindows(row ? (JSON.parse(row.times) as number[]) : [], now, windows);
    write.run({ key, times: JSON.stringify(decision.log), expiresAt: logExpiry(decision.log, windows) });
    return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs };
  });
  return {
    async take(key, windows) {
      return take.immediate(key, windows);
    },
    async purgeExpired() {
      return purgeExpired(clock());
    },
  };
}
