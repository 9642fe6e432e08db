import type { RateLimitLogRepository } from '../slidingWindows/slidingWindows.js';
import type { CanaryEndStore } from '../canary/canaryEndStore.js';
import type { IslandFailureStore } from '../islandFailures/islandFailureCounts.js';
/** Hits counted in the current window of one rate-limit key. */
export interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

/**
 * Fixed-window hit counters for rate limiting, shared by every instance using the database.
 * Keys are opaque (route + client address + …); expired counters are purged now and then.
 */
export interface RateLimitCounterRepository {
  /**
   * Counts one hit on `key`: atomically starts a new window of `windowMs` when none is running
   * (or the last one ended), else adds to the running one.
   */
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Deletes counters whose window has ended; returns how many. */
  purgeExpired(): Promise<number>;
}

export type DatabaseDialect = 'sqlite' | 'postgres';

/** The shell's persistent storage: one repository per concern. */
export interface Database {
  rateLimitCounters: RateLimitCounterRepository;
  /** Sliding-window logs of the limits declared with `windows` (the survey vote limit), shared like the counters. */
  rateLimitLogs: RateLimitLogRepository;
  /**
   * Island failures and page views of every instance (PostgreSQL); undefined on SQLite, where one
   * machine counts in memory (`health/islandFailureCounts.ts`).
   */
  islandFailures?: IslandFailureStore;
  /** Ends of canaries every instance sees (PostgreSQL); undefined on SQLite (one machine: memory). */
  canaryEnds?: CanaryEndStore;
  dialect: DatabaseDialect;
  /** Closes the connection(s); the repositories must not be used afterwards. */
  close(): Promise<void>;
}

/** A schema change, applied once, in version order (the team services' runner, `@khs/team-service`). */
export type { Migration } from '@khs/team-service';
