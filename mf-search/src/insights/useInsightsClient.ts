import { useEffect, useState } from 'react';
import type { InsightsClient } from 'search-insights';
import { forgetInsightsToken, loadInsightsClient } from './loadInsightsClient.js';

/**
 * The insights client, available only while the visitor consents to insights: loaded on the
 * first consent, dropped (and its token cookie deleted) when consent is withdrawn.
 * @param endpoint  Collector URL (`config.calls.insights`).
 * @param consented  Current insights consent.
 * @param load  Loader. Default `loadInsightsClient`.
 */
export function useInsightsClient(
  endpoint: string,
  consented: boolean,
  load: (endpoint: string) => Promise<InsightsClient | null> = loadInsightsClient,
): InsightsClient | null {
  const [client, setClient] = useState<InsightsClient | null>(null);
  useEffect(() => {
    if (!consented) {
      setClient((current: InsightsClient | null) => {
        if (current) forgetInsightsToken();
        return null;
      });
      return;
    }
    let live = true;
    load(endpoint).then((loaded) => {
      if (live) setClient(() => loaded);
    });
    return () => {
      live = false;
    };
  }, [endpoint, consented, load]);
  return client;
}
