import type BetterSqlite3 from 'better-sqlite3';
import { readSearchReport, SQLITE_REPORT_DIALECT } from './searchReportQueries.js';
import { SITE_SEARCH_COLUMNS, SITE_SEARCH_SELECT, siteSearchOfRow, siteSearchRow, type SiteSearchRepository } from './siteSearchRepository.js';
import { behaviourEventFromRow, behaviourQuery, INSIGHTS_EVENT_COLUMNS, insightsEventRow, type InsightsEvent, type InsightsEventRepository } from './insightsEventRepository.js';

/** Search-insights events in SQLite; a batch is stored in one transaction. */
export function sqliteInsightsEventRepository(db: BetterSqlite3.Database): InsightsEventRepository {
  const insert = db.prepare(`INSERT INTO insights_events (${INSIGHTS_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const countAll = db.prepare('SELECT COUNT(*) AS n FROM insights_events');
  const selectBehaviour = db.prepare(behaviourQuery(['?', '?', '?', '?']));
  const insertAll = db.transaction((events: InsightsEvent[]) => {
    for (const event of events) {
      insert.run(...insightsEventRow(event));
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
    async behaviourSince(index, since, afterId = 0, limit = -1) {
      // LIMIT -1: no limit in SQLite.
      return (selectBehaviour.all(index, Math.trunc(since), Math.trunc(afterId), Math.trunc(limit)) as Parameters<typeof behaviourEventFromRow>[0][]).map(behaviourEventFromRow);
    },
  };
}

/** Submitted searches in SQLite. */
export function sqliteSiteSearchRepository(db: BetterSqlite3.Database): SiteSearchRepository {
  const insert = db.prepare(`INSERT INTO site_searches (${SITE_SEARCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`);
  const selectAll = db.prepare(SITE_SEARCH_SELECT);
  return {
    async store(search) {
      insert.run(...siteSearchRow(search));
    },
    async list() {
      return (selectAll.all() as Parameters<typeof siteSearchOfRow>[0][]).map(siteSearchOfRow);
    },
    report(range) {
      return readSearchReport(async (sql, params) => db.prepare(sql).all(...params) as Array<Record<string, unknown>>, SQLITE_REPORT_DIALECT, range);
    },
  };
}
