import type pg from 'pg';
import { decideSlidingWindows, logExpiry, type RateLimitLogRepository } from '../../slidingWindows/slidingWindows.js';

/** How often expired logs are deleted by this instance, at most (ms). */
const PURGE_INTERVAL_MS = 60_000;
/** The database's clock in epoch milliseconds: every instance decides by the same clock. */
const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
/** Tries of one decision when other requests on the same key keep writing first. */
const MAX_ATTEMPTS = 100;

/**
 * Sliding-window logs in PostgreSQL (`rate_limit_logs`), shared by every shell instance. A decision
 * reads the key's log with the database's clock (`clock` replaces it in tests), decides, and writes
 * an accepted request back only if nobody wrote the key meanwhile (its `version`), else decides
 * again: each statement is one round trip on any pooled connection (no transaction holds one),
 * and parallel requests on a key are still decided one after the other. A refused request writes
 * nothing.
 */
export function postgresRateLimitLogRepository(pool: pg.Pool, clock?: () => number): RateLimitLogRepository {
  let lastPurge = 0;
  const purgeExpired = async () => {
    lastPurge = Date.now();
    const result = clock ? await pool.query('DELETE FROM rate_limit_logs WHERE expires_at <= $1', [clock()]) : await pool.query(`DELETE FROM rate_limit_logs WHERE expires_at <= ${NOW_MS}`);
    return result.rowCount ?? 0;
  };
  return {
    async take(key, windows) {
      if (Date.now() - lastPurge > PURGE_INTERVAL_MS) {
        // In the background: a failed purge only leaves expired rows for the next one.
        purgeExpired().catch((error: Error) => console.error('rate-limit log purge failed:', error.message));
      }
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const { rows } = await pool.query<{ now: string; times: string | null; version: string | null }>(
          `SELECT ${NOW_MS} AS now, log.times, log.version FROM (SELECT 1) AS one LEFT JOIN rate_limit_logs AS log ON log.key = $1`,
          [key],
        );
        const row = rows[0]!;
        const decision = decideSlidingWindows(row.times ? (JSON.parse(row.times) as number[]) : [], clock ? clock() : Number(row.now), windows);
        if (!decision.allowed) return { allowed: false, retryAfterMs: decision.retryAfterMs };
        const values = [key, JSON.stringify(decision.log), logExpiry(decision.log, windows)];
        const written =
          row.version === null
            ? await pool.query('INSERT INTO rate_limit_logs (key, times, expires_at, version) VALUES ($1, $2, $3, 1) ON CONFLICT (key) DO NOTHING', values)
            : await pool.query('UPDATE rate_limit_logs SET times = $2, expires_at = $3, version = version + 1 WHERE key = $1 AND version = $4', [...values, row.version]);
        if (written.rowCount === 1) return { allowed: true, retryAfterMs: 0 };
      }
      throw new Error(`rate-limit log "${key}": ${MAX_ATTEMPTS} tries lost to parallel writers`);
    },
    purgeExpired,
  };
}
