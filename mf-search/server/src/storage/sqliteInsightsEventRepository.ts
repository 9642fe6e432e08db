import type BetterSqlite3 from 'better-sqlite3';
import type { InsightsEvent, InsightsEventRepository } from './insightsEventRepository.js';

/** Search-insights events in SQLite; a batch is stored in one transaction. */
export function sqliteInsightsEventRepository(db: BetterSqlite3.Database): InsightsEventRepository {
  const insert = db.prepare(`INSERT INTO insights_events
    (event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const countAll = db.prepare('SELECT COUNT(*) AS n FROM insights_events');
  const insertAll = db.transaction((events: InsightsEvent[]) => {
    for (const event of events) {
      insert.run(
        event.eventType,
        event.eventName,
        event.index,
        event.userToken,
        JSON.stringify(event.objectIds),
        event.positions ? JSON.stringify(event.positions) : null,
        event.queryId ?? null,
        Math.trunc(event.timestamp),
      );
    }
    return events.length;
  });
  return {
    async store(events) {
      return events.length === 0 ? 0 : insertAll(events);
    },
    async count() {
      return (countAll.get() as { n: number }).n;
    },
  };
}
