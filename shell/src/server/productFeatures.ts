import type { FeatureRegistration } from './app.js';
import type { ShellConfig } from './config.js';
import { contactRoutes } from './contact/contactRoutes.js';
import type { ContentStore } from './content/contentStore.js';
import type { Database } from './database/index.js';
import { insightsRoutes } from './insights/insightsRoutes.js';
import type { LinkOriginResolver } from './security/linkOrigin.js';
import { surveyRoutes } from './surveys/surveyRoutes.js';
import { watchlistRoutes } from './watchlist/watchlistRoutes.js';

/** What the product calls need from the running server. */
export interface ProductFeatureDependencies {
  config: ShellConfig;
  content: ContentStore;
  database: Database;
  /** Origin of absolute links (sharing URLs, PDF links), see `createLinkOriginResolver`. */
  linkOrigin: LinkOriginResolver;
}

/**
 * The product calls (surveys, insights, contact, watchlist) wired to the database, as `main.ts`
 * runs them; route tests build the same set. Pass `database.rateLimitCounters` to
 * `buildShellApp` alongside, so their limits are shared between instances.
 */
export function productFeatures({ config, content, database, linkOrigin }: ProductFeatureDependencies): FeatureRegistration[] {
  return [
    { plugin: surveyRoutes, options: { content, surveys: database.surveys, cookieSecret: config.cookieSecret } },
    { plugin: insightsRoutes, options: { events: database.insightsEvents } },
    ({ pageConfig, runtimeUrl, renderIslandPage }) => ({
      plugin: contactRoutes,
      options: { contactRequests: database.contactRequests, dataDir: config.dataDir, pageConfig, runtimeUrl, renderIslandPage },
    }),
    ({ pageConfig, runtimeUrl, renderIslandPage }) => ({
      plugin: watchlistRoutes,
      options: { content, shares: database.watchlistShares, siteName: config.siteName, linkOrigin, pageConfig, runtimeUrl, renderIslandPage },
    }),
  ];
}
