import type { Migration } from './types.js';

/**
 * Schema of both dialects, version by version. Append new versions; never edit an applied one
 * (versions 1 to 5 lost their survey, contact, watchlist and insights tables when those became their
 * teams' own services: fresh databases no longer create them, older ones keep them). Kept side by
 * side so the two schemas stay equivalent.
 */
export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    // Was: survey votes, watchlist shares, insights events — now their services' own storage;
    // databases that applied it keep those tables untouched, for a one-off copy.
    name: 'survey votes, watchlist shares, insights events (moved to their services; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 2,
    // Was: survey vote counts. Votes moved to the survey service (mf-survey/server, its own storage);
    // databases that applied it keep their old survey tables untouched, for a one-off copy.
    name: 'survey vote counts (moved to the survey service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 3,
    // Was: contact requests. They moved to the contact service (contact/server, its own storage);
    // databases that applied it keep their old contact_requests table, for a one-off copy.
    name: 'contact requests (moved to the contact service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 4,
    // Was: the share content hash. Shares moved to the watchlist service (mf-watchlist/server, its own
    // storage); databases that applied it keep their old watchlist_shares table, for a one-off copy.
    name: 'watchlist share hash (moved to the watchlist service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 5,
    name: 'rate-limit counters shared by every instance (its insights part moved to the insights service)',
    sql: `
      CREATE TABLE rate_limit_counters (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        window_ends_at INTEGER NOT NULL
      );
      CREATE INDEX rate_limit_counters_window_ends_at ON rate_limit_counters (window_ends_at);
    `,
  },
  {
    version: 6,
    // On one machine island failures are counted in the process's memory (islandFailures/islandFailureCounts.ts);
    // only PostgreSQL, shared by several instances, has the table. Kept as a version so both lists align.
    name: 'island failure counts (PostgreSQL only: one machine counts in memory)',
    sql: 'SELECT 1',
  },
  {
    version: 7,
    // Like version 6: one machine keeps the ends of canaries in memory (canary/canaryEndStore.ts).
    name: 'ends of canaries (PostgreSQL only: one machine keeps them in memory)',
    sql: 'SELECT 1',
  },
  {
    version: 8,
    name: 'sliding-window rate-limit logs shared by every instance (the survey vote limit)',
    sql: `
      CREATE TABLE rate_limit_logs (
        key TEXT PRIMARY KEY,
        times TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        version INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX rate_limit_logs_expires_at ON rate_limit_logs (expires_at);
    `,
  },
];

export const POSTGRES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    // Was: survey votes, watchlist shares, insights events — now their services' own storage;
    // databases that applied it keep those tables untouched, for a one-off copy.
    name: 'survey votes, watchlist shares, insights events (moved to their services; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 2,
    // Was: survey vote counts. Votes moved to the survey service (mf-survey/server, its own storage);
    // databases that applied it keep their old survey tables untouched, for a one-off copy.
    name: 'survey vote counts (moved to the survey service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 3,
    // Was: contact requests. They moved to the contact service (contact/server, its own storage);
    // databases that applied it keep their old contact_requests table, for a one-off copy.
    name: 'contact requests (moved to the contact service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 4,
    // Was: the share content hash. Shares moved to the watchlist service (mf-watchlist/server, its own
    // storage); databases that applied it keep their old watchlist_shares table, for a one-off copy.
    name: 'watchlist share hash (moved to the watchlist service; nothing to do here)',
    sql: 'SELECT 1',
  },
  {
    version: 5,
    name: 'rate-limit counters shared by every instance (its insights part moved to the insights service)',
    sql: `
      CREATE TABLE rate_limit_counters (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        window_ends_at BIGINT NOT NULL
      );
      CREATE INDEX rate_limit_counters_window_ends_at ON rate_limit_counters (window_ends_at);
    `,
  },
  {
    version: 6,
    name: 'island failure counts and page views per remote build, shared by every instance',
    sql: `
      CREATE TABLE island_failure_counts (
        bucket_start BIGINT NOT NULL,
        remote TEXT NOT NULL,
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        code TEXT NOT NULL,
        version TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (remote, bucket_start, kind, source, code, version)
      );
      CREATE INDEX island_failure_counts_bucket_start ON island_failure_counts (bucket_start);
    `,
  },
  {
    version: 7,
    name: 'ends of canaries decided by the canary rule, shared by every instance',
    sql: `
      CREATE TABLE canary_ends (
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        reason TEXT NOT NULL,
        decided_at TEXT NOT NULL,
        PRIMARY KEY (remote, version)
      );
    `,
  },
  {
    version: 8,
    name: 'sliding-window rate-limit logs shared by every instance (the survey vote limit)',
    sql: `
      CREATE TABLE rate_limit_logs (
        key TEXT PRIMARY KEY,
        times TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        version BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX rate_limit_logs_expires_at ON rate_limit_logs (expires_at);
    `,
  },
];
