/** One search-insights event as received from the browser (Algolia-insights shaped). */
export interface InsightsEvent {
  eventType: 'click' | 'view' | 'conversion';
  eventName: string;
  index: string;
  userToken: string;
  objectIds: string[];
  positions?: number[];
  queryId?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A click or conversion as popularity reads it back: who, on which articles, when. */
export interface BehaviourEvent {
  /** The stored row's id (rising in storing order): read on after the last one seen. */
  id?: number;
  eventType: 'click' | 'conversion';
  userToken: string;
  objectIds: string[];
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** Search-insights events. */
export interface InsightsEventRepository {
  /** Stores every event (all or none); returns how many were stored. */
  store(events: InsightsEvent[]): Promise<number>;
  /** How many events are stored. */
  count(): Promise<number>;
  /**
   * The clicks and conversions of `index` with a timestamp at or after `since` (ms) and a row id
   * above `afterId` (default 0: all), in storing order, at most `limit` (default all).
   */
  behaviourSince(index: string, since: number, afterId?: number, limit?: number): Promise<BehaviourEvent[]>;
}

/** The query both dialects read behaviour with (`?`/`$n` placeholders: index, since, afterId, limit, in this order in the text: SQLite's `?` are positional). */
export function behaviourQuery(placeholders: [string, string, string, string]): string {
  return `SELECT id, event_type, user_token, object_ids_json, event_timestamp FROM insights_events
    WHERE index_name = ${placeholders[0]} AND event_timestamp >= ${placeholders[1]} AND id > ${placeholders[2]} AND event_type IN ('click', 'conversion')
    ORDER BY id LIMIT ${placeholders[3]}`;
}

/** A row of {@link behaviourQuery} as a {@link BehaviourEvent} (PostgreSQL returns BIGINT as text). */
export function behaviourEventFromRow(row: { id: number | string; event_type: string; user_token: string; object_ids_json: string; event_timestamp: number | string }): BehaviourEvent {
  return {
    id: Number(row.id),
    eventType: row.event_type as BehaviourEvent['eventType'],
    userToken: row.user_token,
    objectIds: JSON.parse(row.object_ids_json) as string[],
    timestamp: Number(row.event_timestamp),
  };
}

/** The columns of a stored event, in order; both dialects insert them so. */
export const INSIGHTS_EVENT_COLUMNS = 'event_type, event_name, index_name, user_token, object_ids_json, positions_json, query_id, event_timestamp';

/** An event's values for `INSIGHTS_EVENT_COLUMNS` (lists as JSON, the timestamp a whole number). */
export function insightsEventRow(event: InsightsEvent): unknown[] {
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
