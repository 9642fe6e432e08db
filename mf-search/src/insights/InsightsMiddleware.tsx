import { useLayoutEffect, useRef } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import { createInsightsMiddleware } from 'instantsearch.js/es/middlewares/index.js';
import type { InsightsClient } from 'search-insights';

export interface InsightsMiddlewareProps {
  /** Consented insights client, or `null` (then no events are sent). */
  client: InsightsClient | null;
  /**
   * Hits whose view event was already sent before this list hydrated (by the binding of the
   * server markup): their first view event here is dropped, once per hit. Default none.
   */
  alreadyViewed?: ReadonlySet<string>;
}

type InsightsEvent = { insightsMethod?: string; payload: { objectIDs?: string[] } & Record<string, unknown> };

/**
 * Plugs the insights client into InstantSearch while it exists: hits then send view events
 * (chunked by InstantSearch and again by the collector transport) and `sendEvent` click events.
 */
export function InsightsMiddleware({ client, alreadyViewed }: InsightsMiddlewareProps) {
  const { addMiddlewares, results } = useInstantSearch();
  const latestResults = useRef(results);
  latestResults.current = results;
  // Taken once: what the binding reported before this list existed.
  const skipViews = useRef<Set<string> | null>(null);
  skipViews.current ??= new Set(alreadyViewed);
  useLayoutEffect(() => {
    if (!client) return;
    const skip = skipViews.current!;
    // As InstantSearch's own sending does: a hit's view counts once per answer (hits re-render often).
    const viewed = new Set<string>();
    let viewedIn: unknown;
    const onEvent = (event: InsightsEvent, insightsClient: InsightsClient | null) => {
      const send = insightsClient as unknown as ((method: string, payload: unknown) => void) | null;
      if (!send || !event.insightsMethod) return;
      if (event.insightsMethod === 'viewedObjectIDs' && event.payload.objectIDs) {
        if (latestResults.current !== viewedIn) {
          viewedIn = latestResults.current;
          viewed.clear();
        }
        const fresh = event.payload.objectIDs.filter((objectID) => !viewed.has(objectID) && !skip.delete(objectID));
        for (const objectID of event.payload.objectIDs) viewed.add(objectID);
        if (fresh.length === 0) return;
        event.payload.objectIDs = fresh;
      }
      send(event.insightsMethod, event.payload);
    };
    return addMiddlewares(
      createInsightsMiddleware({
        insightsClient: client as never,
        // Only while there are views to drop; otherwise InstantSearch sends (and deduplicates) as usual.
        ...(skip.size > 0 ? { onEvent: onEvent as never } : {}),
      }),
    );
  }, [client, addMiddlewares]);
  return null;
}
