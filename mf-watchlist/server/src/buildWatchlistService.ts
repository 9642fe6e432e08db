import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { createServiceApp } from '@khs/team-service';
import { DOWNLOAD_BODY_LIMIT_BYTES, WATCHLIST_BODY_LIMIT_BYTES } from './edgePolicy.js';
import { WATCHLIST_SERVICE_NAME, type WatchlistStorage } from './storage/openWatchlistStorage.js';
import { repositoryContent, type WatchlistContent } from './watchlistContent.js';
import { watchlistRoutes, type WatchlistRoutesOptions } from './watchlistRoutes.js';

/** What the watchlist service is built from. */
export interface WatchlistServiceDependencies extends Pick<WatchlistRoutesOptions, 'siteName' | 'edgeKey' | 'fallbackLinkOrigin' | 'now'> {
  storage: WatchlistStorage;
  /** Default: the content store (`@khs/content`). */
  content?: WatchlistContent;
  logger?: FastifyServerOptions['logger'];
}

/** The watchlist service's app: `/health` (with a storage check) and the watchlist calls. */
export async function buildWatchlistService(deps: WatchlistServiceDependencies): Promise<FastifyInstance> {
  const app = createServiceApp({ name: WATCHLIST_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check, bodyLimit: Math.max(WATCHLIST_BODY_LIMIT_BYTES, DOWNLOAD_BODY_LIMIT_BYTES) });
  const { storage, content, logger: _logger, ...routeOptions } = deps;
  await app.register(watchlistRoutes, { ...routeOptions, content: content ?? repositoryContent, shares: storage.shares });
  return app;
}
