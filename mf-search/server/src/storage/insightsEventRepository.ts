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
