import type pg from 'pg';
import { isShareId, newShareId } from '../shareId.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from '../sharedArticlesJson.js';
import type { WatchlistShareRepository } from '../types.js';

/** Shared watchlists in PostgreSQL. */
export function postgresWatchlistShareRepository(pool: pg.Pool): WatchlistShareRepository {
  return {
    async create(articles) {
      const id = newShareId();
      await pool.query('INSERT INTO watchlist_shares (id, articles_json) VALUES ($1, $2)', [
        id,
        sharedArticlesToJson(articles),
      ]);
      return id;
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
