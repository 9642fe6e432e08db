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

/** Search-insights events. */
export interface InsightsEventRepository {
  /** Stores every event (all or none); returns how many were stored. */
  store(events: InsightsEvent[]): Promise<number>;
  /** How many events are stored. */
  count(): Promise<number>;
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
