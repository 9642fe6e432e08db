import type { ServiceMigrations } from '@khs/team-service';

/**
 * The insights collector's schema, both dialects side by side. Append new versions; never edit an
 * applied one. (The table the shell kept before the collector became its own service, with its
 * later integer-timestamp checks folded in.)
 */
export const INSIGHTS_MIGRATIONS: ServiceMigrations = {
  sqlite: [
    {
      version: 1,
      name: 'insights events (integer, positive timestamps)',
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
          event_timestamp INTEGER NOT NULL CHECK (typeof(event_timestamp) = 'integer' AND event_timestamp > 0),
          received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        );
      `,
    },
    {
      version: 2,
      name: 'site searches (site-search tracking: normalised query, hit count, filters, page; no visitor)',
      sql: `
        CREATE TABLE site_searches (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          query TEXT NOT NULL CHECK (length(query) BETWEEN 1 AND 256),
          hit_count INTEGER NOT NULL CHECK (typeof(hit_count) = 'integer' AND hit_count >= 0),
          filters_json TEXT NOT NULL,
          page_path TEXT NOT NULL,
          query_id TEXT,
          searched_at INTEGER NOT NULL CHECK (typeof(searched_at) = 'integer' AND searched_at > 0)
        );
        CREATE INDEX site_searches_by_time ON site_searches (searched_at);
      `,
    },
    {
      version: 3,
      name: "the editors' report joins a search's clicks and conversions by its query id",
      sql: `
        CREATE INDEX insights_events_by_query ON insights_events (query_id, event_type);
      `,
    },
    {
      version: 4,
      name: 'learned re-ranking: the queries editors switched it off for',
      sql: `
        CREATE TABLE rerank_switched_off (
          query TEXT PRIMARY KEY CHECK (length(query) BETWEEN 1 AND 256),
          switched_at INTEGER NOT NULL CHECK (typeof(switched_at) = 'integer' AND switched_at > 0)
        );
      `,
    },
  ],
  postgres: [
    {
      version: 1,
      name: 'insights events (integer, positive timestamps)',
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
          event_timestamp BIGINT NOT NULL CHECK (event_timestamp > 0),
          received_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
      `,
    },
    {
      version: 2,
      name: 'site searches (site-search tracking: normalised query, hit count, filters, page; no visitor)',
      sql: `
        CREATE TABLE site_searches (
          id BIGSERIAL PRIMARY KEY,
          query TEXT NOT NULL CHECK (char_length(query) BETWEEN 1 AND 256),
          hit_count BIGINT NOT NULL CHECK (hit_count >= 0),
          filters_json TEXT NOT NULL,
          page_path TEXT NOT NULL,
          query_id TEXT,
          searched_at BIGINT NOT NULL CHECK (searched_at > 0)
        );
        CREATE INDEX site_searches_by_time ON site_searches (searched_at);
      `,
    },
    {
      version: 3,
      name: "the editors' report joins a search's clicks and conversions by its query id",
      sql: `
        CREATE INDEX insights_events_by_query ON insights_events (query_id, event_type);
      `,
    },
    {
      version: 4,
      name: 'learned re-ranking: the queries editors switched it off for',
      sql: `
        CREATE TABLE rerank_switched_off (
          query TEXT PRIMARY KEY CHECK (char_length(query) BETWEEN 1 AND 256),
          switched_at BIGINT NOT NULL CHECK (switched_at > 0)
        );
      `,
    },
  ],
};
