import type pg from 'pg';
import type { IslandErrorCode } from 'contracts';
import {
  FAILURE_WINDOW_MS,
  MAX_VERSIONS_PER_REMOTE,
  OTHER_VERSIONS,
  UNKNOWN_VERSION,
  type IslandFailure,
  type IslandFailureSource,
  type IslandFailureStore,
  type RemoteFailureCounts,
} from './islandFailureCounts.js';

export interface PostgresIslandFailureStoreOptions {
  /** Sliding window, ms. Default `FAILURE_WINDOW_MS` (15 minutes). */
  windowMs?: number;
  /** Bucket of the window, ms. Default 1 minute. */
  bucketMs?: number;
  /** How often buffered counts are written, ms. Default 1000: other instances see them that much later. */
  flushIntervalMs?: number;
  now?: () => number;
  /** Where a failed write is told (the counts are kept for the next flush). Default `console.error`. */
  onError?: (error: Error) => void;
}

type Kind = 'failure' | 'view';
/** `bucket\nkind\nsource\ncode\nversion` per remote → count not yet written. */
type Buffer = Map<string, Map<string, number>>;

/**
 * Island failures and page views of every shell instance in one PostgreSQL table, by one-minute
 * bucket (`island_failure_counts`). Recording only adds to this process's buffer (a beacon or a
 * page never waits on the database); every `flushIntervalMs` the buffer goes out in one upsert
 * that adds to the shared rows. Reading flushes first, then sums the window. Versions are chosen by
 * browsers: per remote and flush at most `MAX_VERSIONS_PER_REMOTE` are written apart, and a read
 * names the most counted ones and adds the rest to `other`.
 */
export class PostgresIslandFailureStore implements IslandFailureStore {
  readonly windowMs: number;
  private readonly bucketMs: number;
  private readonly now: () => number;
  private readonly onError: (error: Error) => void;
  private buffer: Buffer = new Map();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private lastPurge = 0;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresIslandFailureStoreOptions = {},
  ) {
    this.windowMs = options.windowMs ?? FAILURE_WINDOW_MS;
    this.bucketMs = options.bucketMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? ((error) => console.error('[shell] island failure counts not written (kept for the next flush):', error.message));
    this.timer = setInterval(() => void this.flush().catch(() => undefined), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  recordFailure(failure: IslandFailure): void {
    // A server failure without a build stays '' (counted by code only).
    const version = failure.source === 'browser' ? (failure.version ?? UNKNOWN_VERSION) : (failure.version ?? '');
    this.add(failure.remote, 'failure', failure.source, failure.code, version);
  }

  recordView(remote: string, buildVersion: string): void {
    this.add(remote, 'view', '', '', buildVersion);
  }

  async recentAll(remotes: readonly string[]): Promise<Record<string, RemoteFailureCounts>> {
    await this.flush();
    const oldest = this.now() - this.windowMs - this.bucketMs;
    const { rows } = await this.pool.query<{ remote: string; kind: Kind; source: string; code: string; version: string; count: string }>(
      `SELECT remote, kind, source, code, version, sum(count) AS count FROM island_failure_counts
       WHERE remote = ANY($1) AND bucket_start > $2 GROUP BY remote, kind, source, code, version`,
      [remotes, oldest],
    );
    const result: Record<string, RemoteFailureCounts> = {};
    const versionTotals = new Map<string, { failures: Map<string, number>; serverFailures: Map<string, number>; views: Map<string, number> }>();
    for (const remote of remotes) {
      result[remote] = { total: 0, browser: {}, server: {}, browserVersions: {}, serverVersions: {}, views: {} };
      versionTotals.set(remote, { failures: new Map(), serverFailures: new Map(), views: new Map() });
    }
    for (const row of rows) {
      const counts = result[row.remote]!;
      const versions = versionTotals.get(row.remote)!;
      const count = Number(row.count);
      if (row.kind === 'view') {
        versions.views.set(row.version, (versions.views.get(row.version) ?? 0) + count);
        continue;
      }
      const source = row.source as IslandFailureSource;
      const code = row.code as IslandErrorCode;
      counts[source][code] = (counts[source][code] ?? 0) + count;
      counts.total += count;
      if (source === 'browser') versions.failures.set(row.version, (versions.failures.get(row.version) ?? 0) + count);
      else if (row.version !== '') versions.serverFailures.set(row.version, (versions.serverFailures.get(row.version) ?? 0) + count);
    }
    for (const remote of remotes) {
      const versions = versionTotals.get(remote)!;
      result[remote]!.browserVersions = capVersions(versions.failures);
      result[remote]!.serverVersions = capVersions(versions.serverFailures);
      result[remote]!.views = capVersions(versions.views);
    }
    return result;
  }

  /** Writes the buffered counts (one statement); on failure they stay buffered for the next flush. */
  flush(): Promise<void> {
    // One write at a time; a failed one does not stop the next.
    this.flushing = this.flushing.catch(() => undefined).then(() => this.writeBuffer());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private add(remote: string, kind: Kind, source: string, code: string, version: string): void {
    const bucket = Math.floor(this.now() / this.bucketMs) * this.bucketMs;
    let entries = this.buffer.get(remote);
    if (!entries) this.buffer.set(remote, (entries = new Map()));
    let key = `${bucket}\n${kind}\n${source}\n${code}\n${version}`;
    if (!entries.has(key) && version !== '') {
      const versions = new Set([...entries.keys()].filter((k) => k.split('\n')[1] === kind).map((k) => k.split('\n')[4]));
      if (!versions.has(version) && versions.size >= MAX_VERSIONS_PER_REMOTE) key = `${bucket}\n${kind}\n${source}\n${code}\n${OTHER_VERSIONS}`;
    }
    entries.set(key, (entries.get(key) ?? 0) + 1);
  }

  private async writeBuffer(): Promise<void> {
    if (this.buffer.size === 0) return;
    const pending = this.buffer;
    this.buffer = new Map();
    const columns: [number[], string[], string[], string[], string[], string[], number[]] = [[], [], [], [], [], [], []];
    for (const [remote, entries] of pending) {
      for (const [key, count] of entries) {
        const [bucket, kind, source, code, version] = key.split('\n') as [string, string, string, string, string];
        columns[0].push(Number(bucket));
        columns[1].push(remote);
        columns[2].push(kind);
        columns[3].push(source);
        columns[4].push(code);
        columns[5].push(version);
        columns[6].push(count);
      }
    }
    try {
      await this.pool.query(
        `INSERT INTO island_failure_counts AS t (bucket_start, remote, kind, source, code, version, count)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
         ON CONFLICT (remote, bucket_start, kind, source, code, version) DO UPDATE SET count = t.count + EXCLUDED.count`,
        columns,
      );
    } catch (error) {
      // Put the counts back (added to what arrived meanwhile): nothing is lost while the database is away.
      for (const [remote, entries] of pending) {
        let current = this.buffer.get(remote);
        if (!current) this.buffer.set(remote, (current = new Map()));
        for (const [key, count] of entries) current.set(key, (current.get(key) ?? 0) + count);
      }
      this.onError(error as Error);
      throw error;
    }
    if (this.now() - this.lastPurge > this.bucketMs) {
      this.lastPurge = this.now();
      await this.pool.query('DELETE FROM island_failure_counts WHERE bucket_start <= $1', [this.now() - this.windowMs - this.bucketMs]).catch(this.onError);
    }
  }
}

/** The `MAX_VERSIONS_PER_REMOTE` most counted versions by name, the rest summed as `other`. */
function capVersions(counts: Map<string, number>): Record<string, number> {
  const sorted = [...counts].filter(([, count]) => count > 0).sort((a, b) => b[1] - a[1]);
  const result: Record<string, number> = {};
  sorted.forEach(([version, count], index) => {
    const name = index < MAX_VERSIONS_PER_REMOTE && version !== OTHER_VERSIONS ? version : OTHER_VERSIONS;
    result[name] = (result[name] ?? 0) + count;
  });
  return result;
}
