import type { FastifyInstance } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';
import type { InsightsEventRepository } from './storage/insightsEventRepository.js';
import { INSIGHTS_BODY_LIMIT_BYTES } from './edgePolicy.js';
import { validateInsightsEvents } from './validateInsightsEvents.js';
import { parseBeaconBody } from './beaconBody.js';

/** What the insights collector needs. */
export interface InsightsRoutesOptions {
  /** Where accepted events are stored. */
  events: InsightsEventRepository;
}

/** Path of the collector (PageConfig.calls.insights). */
export const INSIGHTS_EVENTS_PATH = DEFAULT_CALL_URLS.insights;
export { INSIGHTS_BODY_LIMIT_BYTES } from './edgePolicy.js';

/** Answer of an accepted batch. search-insights counts only HTTP 200 as "sent". */
export interface InsightsAccepted {
  status: 200;
  message: 'OK';
  stored: number;
}

/**
 * The embedded insights collector: `POST /api/insights/events` with search-insights' payload
 * `{ events: [{ eventType, eventName, index, userToken, objectIDs, positions?, queryID?,
 * timestamp? }] }`. Valid batches are stored (all or none) and answered 200; anything else is
 * a 4xx JSON error and nothing is stored: 400 invalid, 413 over `INSIGHTS_BODY_LIMIT_BYTES`
 * (declared size checked before reading), 415 neither JSON nor text. Reached by browsers through
 * the shell's proxy, which limits requests per client address (429) and lets this call through
 * without a CSRF token (see there).
 */
export async function insightsRoutes(app: FastifyInstance, options: InsightsRoutesOptions): Promise<void> {
  app.post(
    INSIGHTS_EVENTS_PATH,
    { bodyLimit: INSIGHTS_BODY_LIMIT_BYTES },
    async (request, reply) => {
      const validation = validateInsightsEvents(parseBeaconBody(request.body));
      if (!validation.ok) {
        return reply.code(400).header('cache-control', 'no-store').send({ error: validation.error, code: 'invalid-insights-events' });
      }
      const stored = await options.events.store(validation.events);
      const body: InsightsAccepted = { status: 200, message: 'OK', stored };
      return reply.code(200).header('cache-control', 'no-store').send(body);
    },
  );
}
