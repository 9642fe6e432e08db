import type BetterSqlite3 from 'better-sqlite3';
import { isShareId, newShareId } from './shareId.js';
import { sharedArticlesHash } from './sharedArticlesHash.js';
import { sharedArticlesFromJson, sharedArticlesToJson } from './sharedArticlesJson.js';
import type { ShareBound, WatchlistShareRepository } from './watchlistShareRepository.js';

/** Shared watchlists in SQLite; one row per distinct list. */
export function sqliteWatchlistShareRepository(db: BetterSqlite3.Database): WatchlistShareRepository {
  const insert = db.prepare(
    'INSERT INTO watchlist_shares (id, articles_json, content_hash, creator_address, creator_visitor) VALUES (?, ?, ?, ?, ?) ON CONFLICT (content_hash) DO NOTHING',
  );
  const selectByHash = db.prepare('SELECT id FROM watchlist_shares WHERE content_hash = ?');
  const select = db.prepare('SELECT articles_json AS json FROM watchlist_shares WHERE id = ?');
  const countByAddress = db.prepare('SELECT count(*) AS n FROM watchlist_shares WHERE creator_address = ? AND created_at >= ?');
  const countByVisitor = db.prepare('SELECT count(*) AS n FROM watchlist_shares WHERE creator_visitor = ? AND created_at >= ?');
  const countOf = (statement: BetterSqlite3.Statement, key: string, since: Date) => (statement.get(key, since.toISOString()) as { n: number }).n;
  // One transaction: the count and the insert cannot interleave with another request's.
  const create = db.transaction((json: string, hash: string, bound: ShareBound | undefined): string | undefined => {
    const existing = selectByHash.get(hash) as { id: string } | undefined;
    if (existing) return existing.id;
    if (bound) {
      if (countOf(countByAddress, bound.creator.addressKey, bound.since) >= bound.perAddress) return undefined;
      if (bound.creator.visitorKey && countOf(countByVisitor, bound.creator.visitorKey, bound.since) >= bound.perVisitor) return undefined;
    }
    insert.run(newShareId(), json, hash, bound?.creator.addressKey ?? null, bound?.creator.visitorKey ?? null);
    return (selectByHash.get(hash) as { id: string }).id;
  });
  return {
    async create(articles, bound) {
      const json = sharedArticlesToJson(articles);
      return create(json, sharedArticlesHash(json), bound);
    },
    async get(id) {
      if (!isShareId(id)) return undefined;
      const row = select.get(id) as { json: string } | undefined;
      return row ? sharedArticlesFromJson(row.json) : undefined;
    },
  };
}
