import type { ConsentState, PageBus } from 'contracts';
import { createCollectorRequest, type CollectorEvent, type InsightsRequest } from './collectorRequest.js';
import { ensureInsightsToken, forgetInsightsToken } from './insightsToken.js';

/** The events the hydrated list sends for its hits (InstantSearch's insights middleware, `Teaser`). */
export const HITS_VIEWED_EVENT = 'Hits Viewed';
export const ARTICLE_OPENED_EVENT = 'Article Opened';

export interface ServerHitsInsightsOptions {
  /** Collector URL (`config.calls.insights`). */
  endpoint: string;
  /** Index named in the events. */
  index: string;
  /** Query id of the server's answer, when the search server gave one. Default none. */
  queryID?: string;
  /** The page bus (`consent-changed`). */
  bus: PageBus;
  /** Current consent. */
  getConsent(): ConsentState;
  /** Transport. Default: JSON to `endpoint` (the collector request search-insights uses). */
  send?: InsightsRequest;
  /** Document of the token cookie. Default the global `document`. */
  doc?: Document;
}

/** Insights of the server-rendered hits while no InstantSearch runs (the list is only bound). */
export interface ServerHitsInsights {
  /** Object ids a view event was sent for (the full island does not send them again). */
  readonly viewed: ReadonlySet<string>;
  /** The hits are on screen: one view event for those not reported yet (only with consent). */
  viewedHits(objectIDs: readonly string[]): void;
  /** The visitor opened hit `objectID` at `position` (1-based in the whole list; only with consent). */
  openedHit(objectID: string, position: number): void;
  /** Stops following consent (the full island's insights take over). */
  stop(): void;
}

/**
 * Sends the same view and click events the hydrated list sends for its hits — names, index,
 * positions, query id, the anonymous token of search-insights' cookie — straight to the collector,
 * without loading search-insights or InstantSearch; only while the visitor consents to insights.
 * Hits shown before consent are reported once consent is given, as the hydrated list does when
 * its middleware starts. Withdrawing consent deletes the token cookie.
 */
export function connectServerHitsInsights(options: ServerHitsInsightsOptions): ServerHitsInsights {
  const doc = options.doc ?? document;
  const send = options.send ?? createCollectorRequest(options.endpoint);
  const viewed = new Set<string>();
  let shown: readonly string[] = [];
  let consented = options.getConsent().insights;
  const event = (eventType: CollectorEvent['eventType'], eventName: string, objectIDs: string[], positions?: number[]): CollectorEvent => ({
    eventType,
    eventName,
    index: options.index,
    userToken: ensureInsightsToken(doc),
    objectIDs,
    ...(positions ? { positions } : {}),
    ...(options.queryID ? { queryID: options.queryID } : {}),
  });
  const reportViews = () => {
    const fresh = shown.filter((objectID) => !viewed.has(objectID));
    if (!consented || fresh.length === 0) return;
    for (const objectID of fresh) viewed.add(objectID);
    void send('', { events: [event('view', HITS_VIEWED_EVENT, fresh)] });
  };
  const offConsent = options.bus.on('consent-changed', (consent) => {
    const was = consented;
    consented = consent.insights;
    if (consented && !was) reportViews();
    if (!consented && was) forgetInsightsToken(doc);
  });
  return {
    viewed,
    viewedHits(objectIDs) {
      shown = [...objectIDs];
      reportViews();
    },
    openedHit(objectID, position) {
      if (consented) void send('', { events: [event('click', ARTICLE_OPENED_EVENT, [objectID], [position])] });
    },
    stop: offConsent,
  };
}
