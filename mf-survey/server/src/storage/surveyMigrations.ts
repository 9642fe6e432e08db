import type { ServiceMigrations } from '@khs/team-service';

/**
 * The survey service's schema, both dialects side by side, version by version. Append new versions;
 * never edit an applied one. (The tables are those the shell kept before the survey became its own
 * service; see the slice README for moving existing votes over.)
 */
export const SURVEY_MIGRATIONS: ServiceMigrations = {
  sqlite: [
    {
      version: 1,
      name: 'survey votes (one per voter and survey) and vote counts per answer',
      sql: `
        CREATE TABLE survey_votes (
          form_handle TEXT NOT NULL,
          voter_id TEXT NOT NULL,
          answer_position INTEGER NOT NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          PRIMARY KEY (form_handle, voter_id)
        );
        CREATE TABLE survey_vote_counts (
          form_handle TEXT NOT NULL,
          answer_position INTEGER NOT NULL,
          votes INTEGER NOT NULL,
          PRIMARY KEY (form_handle, answer_position)
        );
      `,
    },
  ],
  postgres: [
    {
      version: 1,
      name: 'survey votes (one per voter and survey) and vote counts per answer',
      sql: `
        CREATE TABLE survey_votes (
          form_handle TEXT NOT NULL,
          voter_id TEXT NOT NULL,
          answer_position INTEGER NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          PRIMARY KEY (form_handle, voter_id)
        );
        CREATE TABLE survey_vote_counts (
          form_handle TEXT NOT NULL,
          answer_position INTEGER NOT NULL,
          votes INTEGER NOT NULL,
          PRIMARY KEY (form_handle, answer_position)
        );
      `,
    },
  ],
};
