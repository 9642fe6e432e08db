import type { IslandErrorCode } from 'contracts';

/** Where a failure was seen: a browser's beacon, or the shell's own server-side render. */
export type IslandFailureSource = 'browser' | 'server';

/** Recent failures of one remote, per source and code. */
export interface RemoteFailureCounts {
  total: number;
  browser: Partial<Record<IslandErrorCode, number>>;
  server: Partial<Record<IslandErrorCode, number>>;
}

export interface IslandFailureCountsOptions {
  /** Length of the sliding window, milliseconds. Default 15 minutes. */
  windowMs?: number;
  /** Granularity of the window, milliseconds (counts leave it one bucket at a time). Default 1 minute. */
  bucketMs?: number;
  now?: () => number;
}

/** Default sliding window of `/health/remotes`: the last 15 minutes, in 1-minute steps. */
export const FAILURE_WINDOW_MS = 15 * 60_000;
const BUCKET_MS = 60_000;

/**
 * Island failures per remote, source and code over a sliding window, in this process's memory.
 * Counts are bucketed by time (`bucketMs`), so memory is bounded by remotes × codes × sources ×
 * buckets whatever the traffic; callers pass only validated remotes and codes. Memory, not the
 * database: these are operational signals of one instance (lost on restart, like its logs), and a
 * beacon must not cost a database write.
 */
export class IslandFailureCounts {
  readonly windowMs: number;
  private readonly bucketMs: number;
  private readonly now: () => number;
  /** `remote\nsource\ncode` → bucket start → count. */
  private readonly buckets = new Map<string, Map<number, number>>();

  constructor(options: IslandFailureCountsOptions = {}) {
    this.windowMs = options.windowMs ?? FAILURE_WINDOW_MS;
    this.bucketMs = options.bucketMs ?? BUCKET_MS;
    this.now = options.now ?? Date.now;
  }

  record(remote: string, source: IslandFailureSource, code: IslandErrorCode): void {
    const key = `${remote}\n${source}\n${code}`;
    let series = this.buckets.get(key);
    if (!series) this.buckets.set(key, (series = new Map()));
    const bucket = Math.floor(this.now() / this.bucketMs) * this.bucketMs;
    series.set(bucket, (series.get(bucket) ?? 0) + 1);
    this.prune(series);
  }

  /** Counts within the window for `remote` (zeros when none). */
  recent(remote: string): RemoteFailureCounts {
    const counts: RemoteFailureCounts = { total: 0, browser: {}, server: {} };
    for (const [key, series] of this.buckets) {
      const [name, source, code] = key.split('\n') as [string, IslandFailureSource, IslandErrorCode];
      if (name !== remote) continue;
      this.prune(series);
      let sum = 0;
      for (const count of series.values()) sum += count;
      if (sum === 0) continue;
      counts[source][code] = sum;
      counts.total += sum;
    }
    return counts;
  }

  private prune(series: Map<number, number>): void {
    // A bucket counts while any part of it is inside the window.
    const oldest = this.now() - this.windowMs - this.bucketMs;
    for (const bucket of series.keys()) if (bucket <= oldest) series.delete(bucket);
  }
}
