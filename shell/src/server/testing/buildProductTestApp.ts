import type { FastifyInstance } from 'fastify';
import { readShellConfig } from '../config.js';
import { repositoryContentStore } from '../content/contentStore.js';
import type { Database } from '../database/index.js';
import { productFeatures } from '../productFeatures.js';
import { createLinkOriginResolver } from '../security/linkOrigin.js';
import { buildTestApp } from './buildTestApp.js';

/**
 * A ready shell app with every product feature (the proxies to the team services, the pages they
 * compose) for `app.inject` tests. The services' URLs come from `env` (e.g. `CONTACT_SERVICE_URL`);
 * links use `publicBaseUrl`, by default the config's `PUBLIC_BASE_URL`.
 */
export async function buildProductTestApp(options: { env: NodeJS.ProcessEnv; database: Database; publicBaseUrl?: string }): Promise<FastifyInstance> {
  const config = readShellConfig(options.env);
  const publicBaseUrl = options.publicBaseUrl ?? config.publicBaseUrl;
  if (!publicBaseUrl) throw new Error('buildProductTestApp needs PUBLIC_BASE_URL in env or a publicBaseUrl');
  const linkOrigin = createLinkOriginResolver({ publicBaseUrl, allowedHosts: [] });
  const content = repositoryContentStore;
  const { app } = await buildTestApp({ env: options.env, content, features: productFeatures({ config, database: options.database, linkOrigin }) });
  await app.ready();
  return app;
}
