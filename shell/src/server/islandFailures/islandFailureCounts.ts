import type { IslandErrorCode } from 'contracts';

/** Where a failure was seen: a browser's beacon, or the shell's own server-side render. */
export type IslandFailureSource = 'browser' | 'server';

/** Recent failures of one remote, per source and code. */
export interface RemoteFailureCounts {
  total: number;
  browser: Partial<Record<IslandErrorCode, number>>;
  server: Partial<Record<IslandErrorCode, number>>;
  /**
   * Browser failures per build version the browser reported (`remoteVersion`; `unknown` when it
   * sent none). At most `MAX_VERSIONS_PER_REMOTE` versions are told apart, the rest count as `other`.
   */
  browserVersions: Record<string, number>;
  /**
   * Server render failures per build version the server rendered (failures it could not tie to a
   * build are in `server` only). Capped like `browserVersions`.
   */
  serverVersions: Record<string, number>;
  /**
   * Page views that ran this remote, per build version, as the browsers' page reports tell them
   * (the denominator of a failure rate: the canary rule compares builds by failures per view).
   * At most `MAX_VERSIONS_PER_REMOTE` versions, the rest as `other`.
   */
  views: Record<string, number>;
}

/** One island failure, as a beacon or a server render reports it. */
export interface IslandFailure {
  remote: string;
  source: IslandFailureSource;
  code: IslandErrorCode;
  /** The remote's build version: the one a browser reported, or the one the server rendered. */
  version?: string | undefined;
}

/**
 * Where island failures and page views are counted, for `/health/remotes` and the canary rule:
 * this process's memory (`IslandFailureCounts`, one machine) or PostgreSQL
 * (`PostgresIslandFailureStore`, every instance into the same rows). Recording never waits and
 * never throws (a beacon or a page must not wait on it); reading sees every instance's counts
 * within the window, each instance's latest ones after at most its flush interval.
 */
export interface IslandFailureStore {
  /** Length of the sliding window, milliseconds (`FAILURE_WINDOW_MS` by default). */
  readonly windowMs: number;
  recordFailure(failure: IslandFailure): void;
  /** One page view that ran `remote` at `buildVersion` (a browser's page report). */
  recordView(remote: string, buildVersion: string): void;
  /** Counts within the window for each of `remotes` (zeros when none). */
  recentAll(remotes: readonly string[]): Promise<Record<string, RemoteFailureCounts>>;
  /** Writes what is buffered and stops (the memory store: nothing to do). */
  close(): Promise<void>;
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
/** Versions told apart per remote within the window (browsers choose the string: memory stays bounded). */
export const MAX_VERSIONS_PER_REMOTE = 8;
/** Version of a browser failure that reported none. */
export const UNKNOWN_VERSION = 'unknown';
/** Where versions beyond `MAX_VERSIONS_PER_REMOTE` are counted. */
export const OTHER_VERSIONS = 'other';

/** Counts per time bucket. */
type Series = Map<number, number>;

/**
 * Island failures per remote, source and code over a sliding window, in this process's memory: the
 * store of one machine (several instances share `PostgresIslandFailureStore` instead). Counts are
 * bucketed by time (`bucketMs`), so memory is bounded by remotes × (codes × sources + versions) ×
 * buckets whatever the traffic; callers pass only validated remotes and codes. Lost on restart.
 */
export class IslandFailureCounts implements IslandFailureStore {
  readonly windowMs: number;
  private readonly bucketMs: number;
  private readonly now: () => number;
  /** `remote\nsource\ncode` → series. */
  private readonly byCode = new Map<string, Series>();
  /** remote → reported version → series (browser failures). */
  private readonly byVersion = new Map<string, Map<string, Series>>();
  /** remote → rendered version → series (server failures tied to a build). */
  private readonly serverByVersion = new Map<string, Map<string, Series>>();
  /** remote → build version → series (page views). */
  private readonly viewsByVersion = new Map<string, Map<string, Series>>();

  constructor(options: IslandFailureCountsOptions = {}) {
    this.windowMs = options.windowMs ?? FAILURE_WINDOW_MS;
    this.bucketMs = options.bucketMs ?? BUCKET_MS;
    this.now = options.now ?? Date.now;
  }

  /** One failure; `version` is the remote's build version a browser reported or the server rendered. */
  record(remote: string, source: IslandFailureSource, code: IslandErrorCode, version?: string): void {
    const key = `${remote}\n${source}\n${code}`;
    let series = this.byCode.get(key);
    if (!series) this.byCode.set(key, (series = new Map()));
    this.add(series);
    if (source === 'browser') this.addVersion(this.byVersion, remote, version ?? UNKNOWN_VERSION);
    else if (version !== undefined) this.addVersion(this.serverByVersion, remote, version);
  }

  recordFailure(failure: IslandFailure): void {
    this.record(failure.remote, failure.source, failure.code, failure.version);
  }

  recordView(remote: string, buildVersion: string): void {
    this.addVersion(this.viewsByVersion, remote, buildVersion);
  }

  async recentAll(remotes: readonly string[]): Promise<Record<string, RemoteFailureCounts>> {
    return Object.fromEntries(remotes.map((remote) => [remote, this.recent(remote)]));
  }

  async close(): Promise<void> {}

  /** Counts within the window for `remote` (zeros when none). */
  recent(remote: string): RemoteFailureCounts {
    const counts: RemoteFailureCounts = { total: 0, browser: {}, server: {}, browserVersions: {}, serverVersions: {}, views: {} };
    for (const [key, series] of this.byCode) {
      const [name, source, code] = key.split('\n') as [string, IslandFailureSource, IslandErrorCode];
      if (name !== remote) continue;
      const sum = this.sum(series);
      if (sum === 0) continue;
      counts[source][code] = sum;
      counts.total += sum;
    }
    for (const [version, series] of this.byVersion.get(remote) ?? []) {
      const sum = this.sum(series);
      if (sum > 0) counts.browserVersions[version] = sum;
    }
    for (const [version, series] of this.serverByVersion.get(remote) ?? []) {
      const sum = this.sum(series);
      if (sum > 0) counts.serverVersions[version] = sum;
    }
    for (const [version, series] of this.viewsByVersion.get(remote) ?? []) {
      const sum = this.sum(series);
      if (sum > 0) counts.views[version] = sum;
    }
    return counts;
  }

  private addVersion(byVersion: Map<string, Map<string, Series>>, remote: string, version: string): void {
    let versions = byVersion.get(remote);
    if (!versions) byVersion.set(remote, (versions = new Map()));
    let series = versions.get(version);
    if (!series) {
      // Versions whose failures all left the window make room for new ones.
      for (const [name, old] of versions) if (this.sum(old) === 0) versions.delete(name);
      if (versions.size >= MAX_VERSIONS_PER_REMOTE) version = OTHER_VERSIONS;
      series = versions.get(version);
      if (!series) versions.set(version, (series = new Map()));
    }
    this.add(series);
  }

  private add(series: Series): void {
    const bucket = Math.floor(this.now() / this.bucketMs) * this.bucketMs;
    series.set(bucket, (series.get(bucket) ?? 0) + 1);
    this.prune(series);
  }

  private sum(series: Series): number {
    this.prune(series);
    let sum = 0;
    for (const count of series.values()) sum += count;
    return sum;
  }

  private prune(series: Series): void {
    // A bucket counts while any part of it is inside the window.
    const oldest = this.now() - this.windowMs - this.bucketMs;
    for (const bucket of series.keys()) if (bucket <= oldest) series.delete(bucket);
  }
}
