import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createServiceApp } from '@khs/team-service';
import { insightsRoutes, INSIGHTS_BODY_LIMIT_BYTES } from './insightsRoutes.js';
import { siteSearchRoutes } from './siteSearchRoutes.js';
import { searchReportRoutes, type ReportReranking } from './report/searchReportRoutes.js';
import { INSIGHTS_SERVICE_NAME, type InsightsStorage } from './storage/openInsightsStorage.js';

/**
 * The search team's service app: `/health` (with a storage check), the collector call, site-search
 * tracking and the editors' report (only when `editorTokens` holds one; default none: off), with the
 * learned re-ranking's view and switches when `reranking` is given (default none: re-ranking off).
 */
export async function buildInsightsService(deps: { storage: InsightsStorage; logger?: FastifyServerOptions['logger']; editorTokens?: readonly string[]; reranking?: ReportReranking; now?: () => number }): Promise<FastifyInstance> {
  const app = createServiceApp({ name: INSIGHTS_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check, bodyLimit: INSIGHTS_BODY_LIMIT_BYTES });
  // Beacons (navigator.sendBeacon with a string) arrive as text/plain; anything else not JSON is refused (415).
  await app.register(insightsRoutes, { events: deps.storage.events });
  await app.register(siteSearchRoutes, { searches: deps.storage.searches, ...(deps.now ? { now: deps.now } : {}) });
  await app.register(searchReportRoutes, { searches: deps.storage.searches, editorTokens: deps.editorTokens ?? [], reranking: deps.reranking, ...(deps.now ? { now: deps.now } : {}) });
  return app;
}
