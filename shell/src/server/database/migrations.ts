import type { Migration } from './types.js';

/**
 * Schema of both dialects, version by version. Append new versions; never edit an applied one
 * (versions 1, 2, 3 and 4 lost their survey, contact and watchlist tables when those became their own
 * services: fresh databases no longer create them, older ones keep them). Kept side by side so the two schemas
 * stay equivalent.
 */
export const SQLITE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'insights events (survey votes and watchlist shares: now their services\' own storage)',
    sql: `
      CREATE TABLE insights_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_type TEXT NOT NULL CHECK (event_type IN ('click', 'view', 'conversion')),
        event_name TEXT NOT NULL,
        index_name TEXT NOT NULL,
        user_token TEXT NOT NULL,
        object_ids_json TEXT NOT NULL,
        positions_json TEXT,
        query_id TEXT,
        event_timestamp INTEGER NOT NULL,
        received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      );
    `,
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
    name: 'rate-limit counters shared by every instance; insights timestamps must be integers',
    sql: `
      CREATE TABLE rate_limit_counters (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        window_ends_at INTEGER NOT NULL
      );
      CREATE INDEX rate_limit_counters_window_ends_at ON rate_limit_counters (window_ends_at);
      CREATE TABLE insights_events_v5 (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_type TEXT NOT NULL CHECK (event_type IN ('click', 'view', 'conversion')),
        event_name TEXT NOT NULL,
        index_name TEXT NOT NULL,
        user_token TEXT NOT NULL,
        object_ids_json TEXT NOT NULL,
        positions_json TEXT,
        query_id TEXT,
        event_timestamp INTEGER NOT NULL CHECK (typeof(event_timestamp) = 'integer' AND event_timestamp > 0),
        received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
      );
      -- Rows whose timestamp was stored as REAL (beyond 64-bit, e.g. 1e300) are garbage and are not kept.
      INSERT INTO insights_events_v5 (id, event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp, received_at)
        SELECT id, event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp, received_at
        FROM insights_events WHERE typeof(event_timestamp) = 'integer' AND event_timestamp > 0;
      DROP TABLE insights_events;
      ALTER TABLE insights_events_v5 RENAME TO insights_events;
    `,
  },
];

export const POSTGRES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'insights events (survey votes and watchlist shares: now their services\' own storage)',
    sql: `
      CREATE TABLE insights_events (
        id BIGSERIAL PRIMARY KEY,
        event_type TEXT NOT NULL CHECK (event_type IN ('click', 'view', 'conversion')),
        event_name TEXT NOT NULL,
        index_name TEXT NOT NULL,
        user_token TEXT NOT NULL,
        object_ids_json TEXT NOT NULL,
        positions_json TEXT,
        query_id TEXT,
        event_timestamp BIGINT NOT NULL,
        received_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
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
    name: 'rate-limit counters shared by every instance; insights timestamps must be integers',
    sql: `
      CREATE TABLE rate_limit_counters (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        window_ends_at BIGINT NOT NULL
      );
      CREATE INDEX rate_limit_counters_window_ends_at ON rate_limit_counters (window_ends_at);
      -- BIGINT already refuses non-integers; the check keeps both dialects' rule alike.
      DELETE FROM insights_events WHERE event_timestamp <= 0;
      ALTER TABLE insights_events ADD CONSTRAINT insights_events_timestamp_positive CHECK (event_timestamp > 0);
    `,
  },
];
