// Starts the whole server side of the site: search (embedded unless TYPESENSE_HOST is set),
// database, shell. Configuration: environment variables, see README "Configuration".
import { readShellConfig, ShellConfigError } from './config.js';
import { buildShellApp } from './app.js';
import { contactRoutes } from './contact/contactRoutes.js';
import { repositoryContentStore as content } from './content/contentStore.js';
import { openDatabase } from './database/index.js';
import { createServerIslands, readServerIslandSettings } from './federation/serverIslandsFromEnv.js';
import { insightsRoutes } from './insights/insightsRoutes.js';
import { ensureArticlesIndexed, startSearchService } from './search/searchService.js';
import { surveyRoutes } from './surveys/surveyRoutes.js';
import { watchlistRoutes } from './watchlist/watchlistRoutes.js';

const log = (message: string) => console.log(`[shell] ${message}`);

async function main(): Promise<void> {
  // Remotes' server code runs in this process: a stray rejection in it (a render that outlived its
  // budget, say) is logged, and the site keeps answering.
  process.on('unhandledRejection', (reason) => console.error('[shell] unhandled rejection (the server keeps running):', reason));
  const config = readShellConfig();
  if (config.usesDevelopmentCookieSecret) {
    log('COOKIE_SECRET is not set: using the public development secret. Set it for any real deployment.');
  }
  const search = await startSearchService(config, log);
  await ensureArticlesIndexed(search, config, log);
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  log(`database: ${database.dialect}`);
  const islands = createServerIslands(config.remotes, readServerIslandSettings());
  const { app } = await buildShellApp({
    config,
    content,
    search: search.browser,
    islands,
    logger: process.env.LOG_LEVEL ? { level: process.env.LOG_LEVEL } : false,
    features: [
      { plugin: surveyRoutes, options: { content, surveys: database.surveys } },
      { plugin: insightsRoutes, options: { events: database.insightsEvents } },
      ({ pageConfig, runtimeUrl }) => ({
        plugin: contactRoutes,
        options: { contactRequests: database.contactRequests, dataDir: config.dataDir, pageConfig, runtimeUrl },
      }),
      ({ pageConfig, runtimeUrl, renderIslandPage }) => ({
        plugin: watchlistRoutes,
        options: {
          content,
          shares: database.watchlistShares,
          siteName: config.siteName,
          publicBaseUrl: config.publicBaseUrl,
          pageConfig,
          runtimeUrl,
          renderIslandPage,
        },
      }),
    ],
  });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}/`;
  // A machine-readable line first (test harnesses read it), then the human one.
  console.log(JSON.stringify({ event: 'listening', url, searchUrl: search.serverUrl }));
  console.log(`KHS competence site is running at ${url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: shutting down`);
    await app.close();
    await islands?.federation.close();
    await database.close();
    await search.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ShellConfigError ? error.message : error);
  process.exit(1);
});
