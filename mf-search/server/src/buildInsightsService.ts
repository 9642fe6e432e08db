import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createServiceApp } from '@khs/team-service';
import { insightsRoutes, INSIGHTS_BODY_LIMIT_BYTES } from './insightsRoutes.js';
import { siteSearchRoutes } from './siteSearchRoutes.js';
import { INSIGHTS_SERVICE_NAME, type InsightsStorage } from './storage/openInsightsStorage.js';

/** The insights collector's app: `/health` (with a storage check) and the collector call and site-search tracking. */
export async function buildInsightsService(deps: { storage: InsightsStorage; logger?: FastifyServerOptions['logger'] }): Promise<FastifyInstance> {
  const app = createServiceApp({ name: INSIGHTS_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check, bodyLimit: INSIGHTS_BODY_LIMIT_BYTES });
  // Beacons (navigator.sendBeacon with a string) arrive as text/plain; anything else not JSON is refused (415).
  await app.register(insightsRoutes, { events: deps.storage.events });
  await app.register(siteSearchRoutes, { searches: deps.storage.searches });
  return app;
}
