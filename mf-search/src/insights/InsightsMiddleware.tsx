import { useLayoutEffect } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import { createInsightsMiddleware } from 'instantsearch.js/es/middlewares/index.js';
import type { InsightsClient } from 'search-insights';

export interface InsightsMiddlewareProps {
  /** Consented insights client, or `null` (then no events are sent). */
  client: InsightsClient | null;
}

/**
 * Plugs the insights client into InstantSearch while it exists: hits then send view events
 * (chunked by InstantSearch and again by the collector transport) and `sendEvent` click events.
 */
export function InsightsMiddleware({ client }: InsightsMiddlewareProps) {
  const { addMiddlewares } = useInstantSearch();
  useLayoutEffect(() => {
    if (!client) return;
    return addMiddlewares(createInsightsMiddleware({ insightsClient: client as never }));
  }, [client, addMiddlewares]);
  return null;
}
