import type pg from 'pg';
import { decideSlidingWindows, logExpiry, type RateLimitLogRepository } from '../../security/rateLimit/slidingWindows.js';

/** How often expired logs are deleted by this instance, at most (ms). */
const PURGE_INTERVAL_MS = 60_000;
/** The database's clock in epoch milliseconds: every instance decides by the same clock. */
const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * Sliding-window logs in PostgreSQL (`rate_limit_logs`), shared by every shell instance: the key's
 * row is created if missing and locked (`FOR UPDATE`) for the read, the decision and the write, so
 * parallel requests on a key are decided one at a time, by the database's clock (`clock` replaces
 * it in tests).
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
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO rate_limit_logs (key, times, expires_at) VALUES ($1, '[]', 0) ON CONFLICT (key) DO NOTHING`, [key]);
        const { rows } = await client.query<{ times: string; now: string }>(`SELECT times, ${NOW_MS} AS now FROM rate_limit_logs WHERE key = $1 FOR UPDATE`, [key]);
        const now = clock ? clock() : Number(rows[0]!.now);
        const decision = decideSlidingWindows(JSON.parse(rows[0]!.times) as number[], now, windows);
        await client.query('UPDATE rate_limit_logs SET times = $2, expires_at = $3 WHERE key = $1', [key, JSON.stringify(decision.log), logExpiry(decision.log, windows)]);
        await client.query('COMMIT');
        return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    purgeExpired,
  };
}
