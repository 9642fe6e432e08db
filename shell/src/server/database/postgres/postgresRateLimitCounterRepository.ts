import type pg from 'pg';
import type { RateLimitCounterRepository } from '../types.js';

/** How often expired counters are deleted by this instance, at most (ms). */
const PURGE_INTERVAL_MS = 60_000;
/** The database's clock in epoch milliseconds: every instance counts windows by the same clock. */
const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * Rate-limit counters in PostgreSQL, shared by every shell instance on the database: one
 * atomic upsert per hit decides the window (the row lock serialises parallel hits on a key).
 */
export function postgresRateLimitCounterRepository(pool: pg.Pool): RateLimitCounterRepository {
  let lastPurge = 0;
  const purgeExpired = async () => {
    lastPurge = Date.now();
    const result = await pool.query(`DELETE FROM rate_limit_counters WHERE window_ends_at <= ${NOW_MS}`);
    return result.rowCount ?? 0;
  };
  return {
    async hit(key, windowMs) {
      if (Date.now() - lastPurge > PURGE_INTERVAL_MS) {
        // In the background: a failed purge only leaves expired rows for the next one.
        purgeExpired().catch((error: Error) => console.error('rate-limit purge failed:', error.message));
      }
      const { rows } = await pool.query<{ hits: number; ms_left: string }>(
        `INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at) VALUES ($1, 1, ${NOW_MS} + $2)
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN c.window_ends_at <= EXCLUDED.window_ends_at - $2 THEN 1 ELSE c.hits + 1 END,
           window_ends_at = CASE WHEN c.window_ends_at <= EXCLUDED.window_ends_at - $2 THEN EXCLUDED.window_ends_at ELSE c.window_ends_at END
         RETURNING hits, window_ends_at - ${NOW_MS} AS ms_left`,
        [key, Math.max(1, Math.trunc(windowMs))],
      );
      const row = rows[0]!;
      return { hits: row.hits, msLeft: Math.max(0, Number(row.ms_left)) };
    },
    purgeExpired,
  };
}
