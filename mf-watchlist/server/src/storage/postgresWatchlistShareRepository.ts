import type pg from 'pg';
import { isShareId, newShareId } from './shareId.js';
import { sharedArticlesHash } from './sharedArticlesHash.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from './sharedArticlesJson.js';
import type { WatchlistShareRepository } from './watchlistShareRepository.js';

/** Shared watchlists in PostgreSQL; one row per distinct list. */
export function postgresWatchlistShareRepository(pool: pg.Pool): WatchlistShareRepository {
  return {
    async create(articles, bound) {
      const json = sharedArticlesToJson(articles);
      const hash = sharedArticlesHash(json);
      // One statement: an equal list's id, else a new row while the creator is under the bound (the
      // counts and the insert see the same snapshot; parallel requests of one creator may pass it by
      // a few, which the edge's per-address limits keep small). A no-op update on conflict makes
      // RETURNING give the existing row's id when an equal list came in meanwhile.
      const { rows } = await pool.query<{ id: string }>(
        `WITH existing AS (SELECT id FROM watchlist_shares WHERE content_hash = $3),
         inserted AS (
           INSERT INTO watchlist_shares (id, articles_json, content_hash, creator_address, creator_visitor)
           SELECT $1, $2, $3, $4, $5
           WHERE NOT EXISTS (SELECT 1 FROM existing)
             AND ($6::timestamptz IS NULL OR (SELECT count(*) FROM watchlist_shares WHERE creator_address = $4 AND created_at >= $6) < $7)
             AND ($6::timestamptz IS NULL OR $5::text IS NULL OR (SELECT count(*) FROM watchlist_shares WHERE creator_visitor = $5 AND created_at >= $6) < $8)
           ON CONFLICT (content_hash) DO UPDATE SET content_hash = EXCLUDED.content_hash
           RETURNING id)
         SELECT id FROM existing UNION ALL SELECT id FROM inserted`,
        [newShareId(), json, hash, bound?.creator.addressKey ?? null, bound?.creator.visitorKey ?? null, bound?.since ?? null, bound?.perAddress ?? 0, bound?.perVisitor ?? 0],
      );
      return rows[0]?.id;
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
