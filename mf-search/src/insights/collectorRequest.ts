import { INSIGHTS_EVENT_CHUNK } from 'contracts';

/** The event types the collector accepts. */
export const INSIGHTS_EVENT_TYPES = ['click', 'view', 'conversion'] as const;
export type InsightsEventType = (typeof INSIGHTS_EVENT_TYPES)[number];

/** One event as the collector stores it (the search-insights payload, minus Algolia extras). */
export interface CollectorEvent {
  eventType: InsightsEventType;
  eventName: string;
  index: string;
  userToken: string;
  objectIDs: string[];
  positions?: number[];
  queryID?: string;
  timestamp?: number;
}

/** search-insights' transport signature: `(url, { events }) => sent?`. */
export type InsightsRequest = (url: string, data: Record<string, unknown>) => Promise<boolean>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Turns search-insights events into collector events: keeps click/view/conversion events on
 * objects (InstantSearch's own usage telemetry is dropped), keeps only the collector's fields
 * and splits object ids into chunks of `INSIGHTS_EVENT_CHUNK`.
 */
export function toCollectorEvents(events: unknown): CollectorEvent[] {
  if (!Array.isArray(events)) return [];
  return events.flatMap((event): CollectorEvent[] => {
    if (!isRecord(event) || !INSIGHTS_EVENT_TYPES.includes(event.eventType as InsightsEventType)) return [];
    const objectIDs = Array.isArray(event.objectIDs) ? event.objectIDs.map(String) : [];
    if (objectIDs.length === 0 || typeof event.eventName !== 'string' || typeof event.index !== 'string') return [];
    if (event.userToken === undefined || event.userToken === null) return [];
    const positions = Array.isArray(event.positions) ? event.positions.map(Number) : undefined;
    const chunks: CollectorEvent[] = [];
    for (let start = 0; start < objectIDs.length; start += INSIGHTS_EVENT_CHUNK) {
      chunks.push({
        eventType: event.eventType as InsightsEventType,
        eventName: event.eventName,
        index: event.index,
        userToken: String(event.userToken),
        objectIDs: objectIDs.slice(start, start + INSIGHTS_EVENT_CHUNK),
        ...(positions ? { positions: positions.slice(start, start + INSIGHTS_EVENT_CHUNK) } : {}),
        ...(typeof event.queryID === 'string' ? { queryID: event.queryID } : {}),
        ...(typeof event.timestamp === 'number' ? { timestamp: event.timestamp } : {}),
      });
    }
    return chunks;
  });
}

/**
 * search-insights' transport pointed at our collector: search-insights builds an Algolia URL
 * (`<host>/1/events?X-Algolia-...`), which is ignored; events go as JSON to `endpoint` on the
 * site's own origin. `keepalive` lets a click event survive the navigation it causes.
 */
export function createCollectorRequest(endpoint: string, fetchImpl: typeof fetch = (...args) => fetch(...args)): InsightsRequest {
  return async (_algoliaUrl, data) => {
    const events = toCollectorEvents(data.events);
    if (events.length === 0) return false;
    try {
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ events }),
        credentials: 'same-origin',
        keepalive: true,
      });
      if (!response.ok) console.error(`[mf-search] the insights collector answered ${response.status}`);
      return response.ok;
    } catch (error) {
      console.error('[mf-search] insights events could not be sent', error);
      return false;
    }
  };
}
