// Starts the watchlist service on its own (`npm start -w mf-watchlist`): its own port (PORT, default
// from the stack registry), its own storage (`$DATA_DIR/watchlist.sqlite`, or the `watchlist` schema
// with DATABASE_URL), reached by browsers only through the shell's proxy. SITE_NAME is printed on
// the PDF; PUBLIC_BASE_URL is used for links only when a request did not come through the shell.
import { articlesDirFromEnv } from '@khs/content';
import { teamService } from '@khs/stack/registry';
import { readServiceSettings, runService, ServiceSettingsError, startProcessLogs } from '@khs/team-service';
import { buildWatchlistService } from './buildWatchlistService.js';
import { openWatchlistStorage, WATCHLIST_SERVICE_NAME } from './storage/openWatchlistStorage.js';
import { createLiveWatchlistContent } from './watchlistContent.js';

async function main(): Promise<void> {
  // Every line of this process as JSON, its first one included.
  startProcessLogs(WATCHLIST_SERVICE_NAME);
  const settings = readServiceSettings(teamService(WATCHLIST_SERVICE_NAME));
  if (settings.usesDevelopmentEdgeKey) console.log(`[${WATCHLIST_SERVICE_NAME}] ${teamService(WATCHLIST_SERVICE_NAME).edgeKeyEnv} is not set: using the public development edge key (loopback only).`);
  const storage = await openWatchlistStorage({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl, schema: settings.databaseSchema });
  // The article folder (CONTENT_DIR) watched: a new article is resolved without a restart.
  const content = createLiveWatchlistContent(articlesDirFromEnv());
  const app = await buildWatchlistService({
    storage,
    content,
    edgeKey: settings.edgeKey,
    siteName: process.env.SITE_NAME?.trim() || 'KHS Competence',
    fallbackLinkOrigin: process.env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '') || undefined,
    logger: process.env.LOG_LEVEL ? { level: process.env.LOG_LEVEL } : false,
  });
  await runService({ name: WATCHLIST_SERVICE_NAME, app, host: settings.host, port: settings.port, onClose: () => {
      content.close();
      return storage.close();
    },
  });
  console.log(`[${WATCHLIST_SERVICE_NAME}] storage: ${storage.dialect}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ServiceSettingsError ? error.message : error);
  process.exit(1);
});
