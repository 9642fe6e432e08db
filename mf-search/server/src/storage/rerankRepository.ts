import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/** One visitor's pick of articles after one search: the search's normalised query, who, which articles. */
export interface QueryPick {
  /** The search's query as stored (normalised: NFKC, lower case, whitespace collapsed). */
  query: string;
  /** The visitor's anonymous insights token. */
  userToken: string;
  /** The articles clicked or saved (one event's object ids). */
  articleIds: string[];
}

/** What the re-ranking learner reads and the editors' switch writes. */
export interface RerankRepository {
  /**
   * The distinct (query, visitor, articles) of clicks and conversions on `index` since `since` (ms),
   * joined by query id with the site searches made since then: only searches reported with the
   * tracking consent have a query text, only events sent with the insights consent exist.
   */
  picks(index: string, since: number): Promise<QueryPick[]>;
  /** The queries editors switched learned re-ranking off for, with when (ms). */
  switchedOff(): Promise<Map<string, number>>;
  /** Switches learned re-ranking off for `query` (kept until switched on again). */
  switchOff(query: string, at: number): Promise<void>;
  /** Switches it on again for `query` (nothing when it was on). */
  switchOn(query: string): Promise<void>;
}

/** The join both dialects run (placeholders: since of searches, index, since of events). */
function picksQuery(placeholders: [string, string, string]): string {
  return `SELECT DISTINCT s.query AS query, e.user_token AS user_token, e.object_ids_json AS object_ids_json
    FROM site_searches s JOIN insights_events e ON e.query_id = s.query_id
    WHERE s.query_id IS NOT NULL AND s.searched_at >= ${placeholders[0]}
      AND e.index_name = ${placeholders[1]} AND e.event_type IN ('click', 'conversion') AND e.event_timestamp >= ${placeholders[2]}`;
}

type PickRow = { query: string; user_token: string; object_ids_json: string };
const pickOfRow = (row: PickRow): QueryPick => ({ query: row.query, userToken: row.user_token, articleIds: JSON.parse(row.object_ids_json) as string[] });

/** The re-ranking's reads and switches in SQLite. */
export function sqliteRerankRepository(db: BetterSqlite3.Database): RerankRepository {
  const selectPicks = db.prepare(picksQuery(['?', '?', '?']));
  const selectOff = db.prepare('SELECT query, switched_at FROM rerank_switched_off');
  const insertOff = db.prepare('INSERT INTO rerank_switched_off (query, switched_at) VALUES (?, ?) ON CONFLICT (query) DO NOTHING');
  const deleteOff = db.prepare('DELETE FROM rerank_switched_off WHERE query = ?');
  return {
    async picks(index, since) {
      return (selectPicks.all(Math.trunc(since), index, Math.trunc(since)) as PickRow[]).map(pickOfRow);
    },
    async switchedOff() {
      return new Map((selectOff.all() as { query: string; switched_at: number }[]).map((row) => [row.query, Number(row.switched_at)]));
    },
    async switchOff(query, at) {
      insertOff.run(query, Math.trunc(at));
    },
    async switchOn(query) {
      deleteOff.run(query);
    },
  };
}

/** The re-ranking's reads and switches in PostgreSQL. */
export function postgresRerankRepository(pool: pg.Pool): RerankRepository {
  return {
    async picks(index, since) {
      const { rows } = await pool.query<PickRow>(picksQuery(['$1', '$2', '$3']), [Math.trunc(since), index, Math.trunc(since)]);
      return rows.map(pickOfRow);
    },
    async switchedOff() {
      const { rows } = await pool.query<{ query: string; switched_at: string }>('SELECT query, switched_at FROM rerank_switched_off');
      return new Map(rows.map((row) => [row.query, Number(row.switched_at)]));
    },
    async switchOff(query, at) {
      await pool.query('INSERT INTO rerank_switched_off (query, switched_at) VALUES ($1, $2) ON CONFLICT (query) DO NOTHING', [query, Math.trunc(at)]);
    },
    async switchOn(query) {
      await pool.query('DELETE FROM rerank_switched_off WHERE query = $1', [query]);
    },
  };
}
