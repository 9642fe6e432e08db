import { useMemo } from 'react';
import type { IslandContext } from 'contracts';
import type { InsightsClient } from 'search-insights';
import { useConsent } from '../hooks/useConsent.js';
import { autocompleteInsights, type AutocompleteInsights } from './autocompleteInsights.js';
import { useInsightsClient } from './useInsightsClient.js';

/** The consented insights client of an island (or `null`) and its autocomplete events. */
export interface SearchInsights {
  client: InsightsClient | null;
  autocomplete: AutocompleteInsights;
}

/**
 * Insights for a search island: follows the visitor's insights consent, loads the client on
 * consent and sends to `config.calls.insights`.
 * @param indexName  Index named in the events.
 */
export function useSearchInsights(context: IslandContext, indexName: string): SearchInsights {
  const consent = useConsent(context);
  const client = useInsightsClient(context.config.calls.insights, consent.insights);
  const autocomplete = useMemo(() => autocompleteInsights(client, indexName), [client, indexName]);
  return { client, autocomplete };
}
