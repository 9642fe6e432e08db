import type { FastifyRequest } from 'fastify';
import type { FeatureRegistration } from './app.js';
import type { ShellConfig } from './config.js';
import type { Database } from './database/index.js';
import { formPageRoutes } from './fragmentPages/formPageRoutes.js';
import { teamServiceProxies } from './proxy/teamServiceProxies.js';
import type { LinkOriginResolver } from './security/linkOrigin.js';
import { serviceFragmentPages } from './fragmentPages/serviceFragmentPages.js';

/** What the product calls need from the running server. */
export interface ProductFeatureDependencies {
  config: ShellConfig;
  database: Database;
  /** Origin of absolute links (sharing URLs, PDF links), see `createLinkOriginResolver`. */
  linkOrigin: LinkOriginResolver;
}

/**
 * The product calls as `main.ts` runs them: the team services' calls forwarded by the proxy and the pages they declare (edge policies),
 * and the form pages they declare (their posts checked here, then forwarded); route
 * tests build the same set. Pass `database.rateLimitCounters` to
 * `buildShellApp` alongside, so their limits are shared between instances.
 */
export function productFeatures({ config, database, linkOrigin }: ProductFeatureDependencies): FeatureRegistration[] {
  return [
    ...teamServiceProxies({ config, linkOrigin, rateLimitLogs: database.rateLimitLogs }),
    // The form pages each service declares (its edge policy's `formPages`): content composed, posts checked here, then streamed.
    ...(Object.keys(config.services) as (keyof ShellConfig['services'])[]).flatMap((name) =>
      (config.services[name].edgePolicy.formPages ?? []).map(
        (form): FeatureRegistration =>
          ({ pageConfig, runtimeUrl, streamIslandPage, images }) => ({
            plugin: formPageRoutes,
            options: {
              ...config.services[name],
              form,
              edgeKey: config.edgeKeys[name],
              pageConfig,
              runtimeUrl,
              streamIslandPage,
              metadataContext: (request: FastifyRequest) => ({ origin: linkOrigin(request), siteName: config.siteName, images }),
            },
          }),
      ),
    ),
    // The pages each service declares (its edge policy's `pages`), composed from its fragments.
    ...(Object.keys(config.services) as (keyof ShellConfig['services'])[])
      .filter((name) => (config.services[name].edgePolicy.pages ?? []).length > 0)
      .map(
        (name): FeatureRegistration =>
          ({ pageConfig, runtimeUrl, streamIslandPage }) => ({
            plugin: serviceFragmentPages,
            options: {
              upstreams: config.services[name].upstreams,
              edgeKey: config.edgeKeys[name],
              responseTimeoutMs: config.services[name].responseTimeoutMs,
              pages: config.services[name].edgePolicy.pages ?? [],
              pageConfig,
              runtimeUrl,
              streamIslandPage,
            },
          }),
      ),
  ];
}
