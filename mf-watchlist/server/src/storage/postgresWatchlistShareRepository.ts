import type pg from 'pg';
import { isShareId, newShareId } from './shareId.js';
import { sharedArticlesHash } from './sharedArticlesHash.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from './sharedArticlesJson.js';
import type { WatchlistShareRepository } from './watchlistShareRepository.js';

/** Shared watchlists in PostgreSQL; one row per distinct list. */
export function postgresWatchlistShareRepository(pool: pg.Pool): WatchlistShareRepository {
  return {
    async create(articles) {
      const json = sharedArticlesToJson(articles);
      const hash = sharedArticlesHash(json);
      // A no-op update on conflict makes RETURNING give the existing row's id in one statement.
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO watchlist_shares (id, articles_json, content_hash) VALUES ($1, $2, $3)
         ON CONFLICT (content_hash) DO UPDATE SET content_hash = EXCLUDED.content_hash
         RETURNING id`,
        [newShareId(), json, hash],
      );
      return rows[0]!.id;
    },
    async get(id) {
      if (!isShareId(id)) return undefined;
      const { rows } = await pool.query<{ json: string }>(
        'SELECT articles_json AS json FROM watchlist_shares WHERE id = $1',
        [id],
      );
      const row = rows[0];
      return row ? sharedArticlesFromJson(row.json) : undefined;
    },
  };
}
