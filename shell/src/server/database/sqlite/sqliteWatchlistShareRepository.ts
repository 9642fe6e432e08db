import type BetterSqlite3 from 'better-sqlite3';
import { isShareId, newShareId } from '../shareId.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from '../sharedArticlesJson.js';
import type { WatchlistShareRepository } from '../types.js';

/** Shared watchlists in SQLite. */
export function sqliteWatchlistShareRepository(db: BetterSqlite3.Database): WatchlistShareRepository {
  const insert = db.prepare('INSERT INTO watchlist_shares (id, articles_json) VALUES (?, ?)');
  const select = db.prepare('SELECT articles_json AS json FROM watchlist_shares WHERE id = ?');
  return {
    async create(articles) {
      const id = newShareId();
      insert.run(id, sharedArticlesToJson(articles));
      return id;
    },
    async get(id) {
      if (!isShareId(id)) return undefined;
      const row = select.get(id) as { json: string } | undefined;
      return row ? sharedArticlesFromJson(row.json) : undefined;
    },
  };
}
