import type { ServiceMigrations } from '@khs/team-service';

/**
 * The contact service's schema, both dialects side by side. Append new versions; never edit an
 * applied one. (The table the shell kept as its version 3 before the contact form became its own
 * service; see the slice README for moving existing requests over.)
 */
export const CONTACT_MIGRATIONS: ServiceMigrations = {
  sqlite: [
    {
      version: 1,
      name: 'contact requests (anonymous visitors; attachment bytes live in files, their metadata here)',
      sql: `
        CREATE TABLE contact_requests (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          email TEXT NOT NULL,
          message TEXT NOT NULL,
          password_hash TEXT,
          attachment_storage_id TEXT,
          attachment_name TEXT,
          attachment_size INTEGER,
          attachment_type TEXT,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          CHECK ((attachment_storage_id IS NULL) = (attachment_name IS NULL)
            AND (attachment_storage_id IS NULL) = (attachment_size IS NULL)
            AND (attachment_storage_id IS NULL) = (attachment_type IS NULL))
        );
      `,
    },
  ],
  postgres: [
    {
      version: 1,
      name: 'contact requests (anonymous visitors; attachment bytes live in files, their metadata here)',
      sql: `
        CREATE TABLE contact_requests (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          email TEXT NOT NULL,
          message TEXT NOT NULL,
          password_hash TEXT,
          attachment_storage_id TEXT,
          attachment_name TEXT,
          attachment_size BIGINT,
          attachment_type TEXT,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          CHECK ((attachment_storage_id IS NULL) = (attachment_name IS NULL)
            AND (attachment_storage_id IS NULL) = (attachment_size IS NULL)
            AND (attachment_storage_id IS NULL) = (attachment_type IS NULL))
        );
      `,
    },
  ],
};
