import type { ServiceMigrations } from '@khs/team-service';

/**
 * The watchlist service's schema, both dialects side by side. Append new versions; never edit an
 * applied one. (The table the shell kept before the watchlist became its own service, with its
 * later content-hash column folded in; see the slice README for moving existing shares over.)
 */
export const WATCHLIST_MIGRATIONS: ServiceMigrations = {
  sqlite: [
    {
      version: 1,
      name: 'watchlist shares, one row per distinct list',
      sql: `
        CREATE TABLE watchlist_shares (
          id TEXT PRIMARY KEY,
          articles_json TEXT NOT NULL,
          content_hash TEXT,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        );
        CREATE UNIQUE INDEX watchlist_shares_content_hash ON watchlist_shares (content_hash);
      `,
    },
    {
      version: 2,
      name: 'who created each share (keyed address and visitor), to bound new shares per creator',
      sql: `
        ALTER TABLE watchlist_shares ADD COLUMN creator_address TEXT;
        ALTER TABLE watchlist_shares ADD COLUMN creator_visitor TEXT;
        CREATE INDEX watchlist_shares_creator_address ON watchlist_shares (creator_address, created_at);
        CREATE INDEX watchlist_shares_creator_visitor ON watchlist_shares (creator_visitor, created_at);
      `,
    },
  ],
  postgres: [
    {
      version: 1,
      name: 'watchlist shares, one row per distinct list',
      sql: `
        CREATE TABLE watchlist_shares (
          id TEXT PRIMARY KEY,
          articles_json TEXT NOT NULL,
          content_hash TEXT,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        CREATE UNIQUE INDEX watchlist_shares_content_hash ON watchlist_shares (content_hash);
      `,
    },
    {
      version: 2,
      name: 'who created each share (keyed address and visitor), to bound new shares per creator',
      sql: `
        ALTER TABLE watchlist_shares ADD COLUMN creator_address TEXT;
        ALTER TABLE watchlist_shares ADD COLUMN creator_visitor TEXT;
        CREATE INDEX watchlist_shares_creator_address ON watchlist_shares (creator_address, created_at);
        CREATE INDEX watchlist_shares_creator_visitor ON watchlist_shares (creator_visitor, created_at);
      `,
    },
  ],
};
