import type pg from 'pg';
import type { InsightsEvent, InsightsEventRepository } from './insightsEventRepository.js';

/** Columns per event row; rows per INSERT stay far below PostgreSQL's 65535 parameters. */
const COLUMNS = 8;
const ROWS_PER_INSERT = 1000;

function eventParameters(event: InsightsEvent): unknown[] {
  return [
    event.eventType,
    event.eventName,
    event.index,
    event.userToken,
    JSON.stringify(event.objectIds),
    event.positions ? JSON.stringify(event.positions) : null,
    event.queryId ?? null,
    Math.trunc(event.timestamp),
  ];
}

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
          const placeholders = chunk.map(
            (_, row) => `(${Array.from({ length: COLUMNS }, (_, col) => `$${row * COLUMNS + col + 1}`).join(', ')})`,
          );
          await client.query(
            `INSERT INTO insights_events
              (event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp)
             VALUES ${placeholders.join(', ')}`,
            chunk.flatMap(eventParameters),
          );
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
  };
}
