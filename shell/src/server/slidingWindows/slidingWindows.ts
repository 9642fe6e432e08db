/**
 * Sliding-window rate limits: at most `max` accepted requests in any `windowMs`, for every window
 * of a limit at once (e.g. 10 in any minute and 200 in any hour). Unlike fixed windows, a burst at
 * a window's end cannot be followed by another at the next one's start, so a limit can be sized for
 * many honest people behind one address (an office) and still bound a script at the same rate.
 * The log of accepted requests per key is kept by a store (`RateLimitLogRepository`: the shell's
 * database, shared by every instance; or memory, one process); the decision is this one function.
 */

/** One sliding window of a limit. */
export interface RateWindow {
  /** Accepted requests allowed in any `windowMs`. */
  max: number;
  windowMs: number;
}

/** What a store answers for one request. */
export interface RateDecision {
  allowed: boolean;
  /** For a refused request: how long until one would be accepted (ms, at least 1). 0 when allowed. */
  retryAfterMs: number;
}

/**
 * Decides one request at `now` against the accepted times `log` (ascending, ms): refused when any
 * window already holds `max` of them; `log` is what to keep (the times still inside the longest
 * window, plus `now` when accepted: a refused request is not counted).
 */
export function decideSlidingWindows(log: readonly number[], now: number, windows: readonly RateWindow[]): RateDecision & { log: number[] } {
  const longest = Math.max(...windows.map((window) => window.windowMs));
  const recent = log.filter((time) => time > now - longest && time <= now);
  let retryAfterMs = 0;
  for (const { max, windowMs } of windows) {
    const inWindow = recent.filter((time) => time > now - windowMs);
    // Accepted again once enough of the oldest leave the window that one more fits.
    if (inWindow.length >= max) retryAfterMs = Math.max(retryAfterMs, inWindow[inWindow.length - max]! + windowMs - now, 1);
  }
  const allowed = retryAfterMs === 0;
  return { allowed, retryAfterMs, log: allowed ? [...recent, now] : recent };
}

/** Keeps per key the accepted requests' times and decides each request atomically (`decideSlidingWindows`). */
export interface RateLimitLogRepository {
  /** Decides one request on `key` and, when accepted, records it; parallel calls on a key are serialised. */
  take(key: string, windows: readonly RateWindow[]): Promise<RateDecision>;
  /** Deletes logs none of whose times is still inside its longest window; returns how many. */
  purgeExpired(): Promise<number>;
}

/** The same in this process's memory (one instance, tests). */
export function memoryRateLimitLog(clock: () => number = Date.now): RateLimitLogRepository {
  const logs = new Map<string, { times: number[]; expiresAt: number }>();
  const purgeExpired = async () => {
    const now = clock();
    let purged = 0;
    for (const [key, entry] of logs) {
      if (entry.expiresAt <= now) {
        logs.delete(key);
        purged += 1;
      }
    }
    return purged;
  };
  return {
    async take(key, windows) {
      const now = clock();
      const decision = decideSlidingWindows(logs.get(key)?.times ?? [], now, windows);
      logs.set(key, { times: decision.log, expiresAt: logExpiry(decision.log, windows) });
      if (logs.size > 10_000) await purgeExpired();
      return { allowed: decision.allowed, retryAfterMs: decision.retryAfterMs };
    },
    purgeExpired,
  };
}

/** When a log stops mattering: its newest time plus the longest window. */
export function logExpiry(log: readonly number[], windows: readonly RateWindow[]): number {
  return (log.at(-1) ?? 0) + Math.max(...windows.map((window) => window.windowMs));
}
