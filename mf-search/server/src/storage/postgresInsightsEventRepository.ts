import type pg from 'pg';
import { POSTGRES_REPORT_DIALECT, readSearchReport } from './searchReportQueries.js';
import { SITE_SEARCH_COLUMNS, SITE_SEARCH_SELECT, siteSearchOfRow, siteSearchRow, type SiteSearchRepository } from './siteSearchRepository.js';
import { behaviourEventFromRow, behaviourQuery, INSIGHTS_EVENT_COLUMNS, insightsEventRow, type InsightsEventRepository } from './insightsEventRepository.js';

/** Rows per INSERT stay far below PostgreSQL's 65535 parameters. */
const ROWS_PER_INSERT = 1000;

/** Search-insights events in PostgreSQL; a batch is stored in one transaction. */
export function postgresInsightsEventRepository(pool: pg.Pool): InsightsEventRepository {
  return {
    async store(events) {
      if (events.length === 0) return 0;
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
          const chunk = events.slice(start, start + ROWS_PER_INSERT);
          const rows = chunk.map(insightsEventRow);
          const placeholders = rows.map((row, r) => `(${row.map((_, col) => `$${r * row.length + col + 1}`).join(', ')})`);
          await client.query(`INSERT INTO insights_events (${INSIGHTS_EVENT_COLUMNS}) VALUES ${placeholders.join(', ')}`, rows.flat());
        }
        await client.query('COMMIT');
        return events.length;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async count() {
      const { rows } = await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM insights_events');
      return Number(rows[0]?.n ?? 0);
    },
    async behaviourSince(index, since, afterId = 0, limit) {
      // LIMIT NULL: no limit in PostgreSQL.
      const { rows } = await pool.query<Parameters<typeof behaviourEventFromRow>[0]>(behaviourQuery(['$1', '$2', '$3', '$4']), [index, Math.trunc(since), Math.trunc(afterId), limit === undefined ? null : Math.trunc(limit)]);
      return rows.map(behaviourEventFromRow);
    },
  };
}

/** Submitted searches in PostgreSQL. */
export function postgresSiteSearchRepository(pool: pg.Pool): SiteSearchRepository {
  return {
    async store(search) {
      await pool.query(`INSERT INTO site_searches (${SITE_SEARCH_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, siteSearchRow(search));
    },
    async list() {
      const { rows } = await pool.query<Parameters<typeof siteSearchOfRow>[0]>(SITE_SEARCH_SELECT);
      return rows.map(siteSearchOfRow);
    },
    report(range) {
      // The report's statements use `?`: numbered for PostgreSQL.
      return readSearchReport(async (sql, params) => {
        let next = 0;
        return (await pool.query(sql.replace(/\?/g, () => `$${++next}`), params)).rows as Array<Record<string, unknown>>;
      }, POSTGRES_REPORT_DIALECT, range);
    },
  };
}
