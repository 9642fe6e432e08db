import type { InsightsClient } from 'search-insights';
import { INSIGHTS_COOKIE_LIFETIME_DAYS } from 'contracts';
import { createCollectorRequest } from './collectorRequest.js';
export { forgetInsightsToken, INSIGHTS_TOKEN_COOKIE } from './insightsToken.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type InsightsModule = Pick<typeof import('search-insights'), 'createInsightsClient'>;

const loaded = new Map<string, Promise<InsightsClient | null>>();

/**
 * Loads search-insights (its own chunk, fetched only once the visitor consented) and returns a
 * client that sends to the collector at `endpoint`, with an anonymous token kept in a cookie for
 * `INSIGHTS_COOKIE_LIFETIME_DAYS`. A load failure is logged and answers `null`; one client per
 * endpoint is shared by every island of the page.
 * @param importInsights  How the script is loaded. Default: dynamic import of `search-insights`.
 */
export function loadInsightsClient(
  endpoint: string,
  importInsights: () => Promise<InsightsModule> = () => import('search-insights'),
): Promise<InsightsClient | null> {
  let client = loaded.get(endpoint);
  if (!client) {
    client = importInsights().then(
      ({ createInsightsClient }) => {
        const insights = createInsightsClient(createCollectorRequest(endpoint));
        // appId/apiKey are required by search-insights but meaningless to our collector.
        insights('init', {
          appId: 'khs-site',
          apiKey: 'insights-collector',
          useCookie: true,
          anonymousUserToken: true,
          cookieDuration: INSIGHTS_COOKIE_LIFETIME_DAYS * DAY_MS,
        });
        return insights;
      },
      (error: unknown) => {
        console.error('[mf-search] the insights script failed to load; no insights events are sent', error);
        loaded.delete(endpoint);
        return null;
      },
    );
    loaded.set(endpoint, client);
  }
  return client;
}
