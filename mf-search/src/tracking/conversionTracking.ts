import type { ConsentState, PageBus } from 'contracts';
import { createCollectorRequest, type InsightsRequest } from '../insights/collectorRequest.js';
import { ensureInsightsToken } from '../insights/insightsToken.js';
import { searchConvertedBy } from './lastSearch.js';

/** The conversion event's name. */
export const ARTICLE_SAVED_EVENT = 'Article Saved';

export interface ConversionTrackingOptions {
  /** Collector URL (`config.calls.insights`). */
  endpoint: string;
  /** Index named in the events. */
  index: string;
  bus: PageBus;
  getConsent(): ConsentState;
  /** Transport. Default: JSON to `endpoint`. */
  send?: InsightsRequest;
  /** Clock. Default `Date.now`. */
  now?: () => number;
}

/**
 * Every page's conversions: a watchlist save (`watchlist-added` with `added: true`, from any
 * island) of an article the tab's last search showed within `CONVERSION_WINDOW_MS` sends one
 * insights conversion event with that search's query id — only with the `insights` consent. The
 * `SearchConversions` island (no markup, placed on every page, no React) starts it once per page.
 * @returns stop
 */
export function startConversionTracking(options: ConversionTrackingOptions): () => void {
  const send = options.send ?? createCollectorRequest(options.endpoint);
  const now = options.now ?? Date.now;
  return options.bus.on('watchlist-added', ({ id, added }) => {
    if (!added || !options.getConsent().insights) return;
    const search = searchConvertedBy(id, now());
    if (!search) return;
    void send('', {
      events: [{ eventType: 'conversion', eventName: ARTICLE_SAVED_EVENT, index: options.index, userToken: ensureInsightsToken(), objectIDs: [id], queryID: search.queryId }],
    });
  });
}
