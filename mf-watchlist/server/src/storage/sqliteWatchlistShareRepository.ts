import type BetterSqlite3 from 'better-sqlite3';
import { isShareId, newShareId } from './shareId.js';
import { sharedArticlesHash } from './sharedArticlesHash.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from './sharedArticlesJson.js';
import type { WatchlistShareRepository } from './watchlistShareRepository.js';

/** Shared watchlists in SQLite; one row per distinct list. */
export function sqliteWatchlistShareRepository(db: BetterSqlite3.Database): WatchlistShareRepository {
  const insert = db.prepare(
    'INSERT INTO watchlist_shares (id, articles_json, content_hash) VALUES (?, ?, ?) ON CONFLICT (content_hash) DO NOTHING',
  );
  const selectByHash = db.prepare('SELECT id FROM watchlist_shares WHERE content_hash = ?');
  const select = db.prepare('SELECT articles_json AS json FROM watchlist_shares WHERE id = ?');
  return {
    async create(articles) {
      const json = sharedArticlesToJson(articles);
      const hash = sharedArticlesHash(json);
      insert.run(newShareId(), json, hash);
      return (selectByHash.get(hash) as { id: string }).id;
    },
    async get(id) {
      if (!isShareId(id)) return undefined;
      const row = select.get(id) as { json: string } | undefined;
      return row ? sharedArticlesFromJson(row.json) : undefined;
    },
  };
}
