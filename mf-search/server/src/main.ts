// Starts the search team's service (the insights collector and the content indexer) on its own (`npm start -w mf-search`): its own port
// (PORT, default from the stack registry), its own storage (`$DATA_DIR/insights.sqlite`, or the
// `insights` schema with DATABASE_URL), reached by browsers only through the shell's proxy.
import { articlesDirFromEnv } from '@khs/content';
import { teamService, withDeprecatedEnv } from '@khs/stack/registry';
import { readServiceSettings, runService, ServiceSettingsError, startProcessLogs } from '@khs/team-service';
import { buildInsightsService } from './buildInsightsService.js';
import { editorTokensFromEnv } from './report/editorAccess.js';
import { readIndexerSettings, startContentIndexer } from './indexing/contentIndexer.js';
import { readPopularitySettings, PopularitySettingsError } from './popularity/popularitySettings.js';
import { startPopularityUpdater } from './popularity/popularityUpdater.js';
import { createLearnedCurationWriter } from './reranking/learnedCurationSet.js';
import { startRerankLearner } from './reranking/rerankLearner.js';
import { openInsightsStorage } from './storage/openInsightsStorage.js';

/** The service's name in its manifest (`slice.json`'s `service.name`). */
const SEARCH_TEAM_SERVICE_NAME = 'search-team';

/** Longest wait for the first index sync before the service starts answering. */
const FIRST_SYNC_WAIT_MS = 20_000;

async function main(): Promise<void> {
  // Every line of this process as JSON, its first one included.
  startProcessLogs(SEARCH_TEAM_SERVICE_NAME);
  // The search team's service (registry name `search-team`; its storage keeps the name `insights`).
  const settings = readServiceSettings(teamService(SEARCH_TEAM_SERVICE_NAME), withDeprecatedEnv(process.env));
  const popularity = readPopularitySettings();
  const storage = await openInsightsStorage({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl, schema: settings.databaseSchema });
  // The search slice owns its index: synced at start and after every change of the content folder.
  // The service reports ready once the first sync is done (pages find the articles from the start),
  // but waits at most FIRST_SYNC_WAIT_MS: a large first import or an unreachable search server goes
  // on in the background instead of failing the start.
  const indexerSettings = readIndexerSettings(articlesDirFromEnv());
  const indexer = startContentIndexer({ ...indexerSettings, log: (message) => console.log(`[search-indexer] ${message}`) });
  await Promise.race([indexer.idle(), new Promise((resolve) => setTimeout(resolve, FIRST_SYNC_WAIT_MS).unref())]);
  // The editors' report opens with EDITOR_TOKEN (or the operators' OPERATOR_TOKEN); without either it is off.
  const editorTokens = editorTokensFromEnv(process.env);
  // Off by default (SEARCH_POPULARITY): then nothing writes `popularity` and the site sorts by relevance.
  const popularityUpdater = popularity.enabled
    ? startPopularityUpdater({ target: indexerSettings.target, events: storage.events, settings: popularity, refreshMs: popularity.refreshMs, log: (message) => console.log(`[search-popularity] ${message}`) })
    : undefined;
  // With popularity on, the same visitors' picks also re-rank each query's top results (learned
  // curations of the service's own, `reranking/`), as often as popularity refreshes.
  const curationWriter = popularity.enabled ? createLearnedCurationWriter(indexerSettings.target) : undefined;
  const rerankLearner = curationWriter
    ? startRerankLearner({
        index: indexerSettings.target.collectionName,
        store: storage.reranking,
        organicResults: curationWriter.organicResults,
        apply: curationWriter.apply,
        minVisitors: popularity.minVisitors,
        refreshMs: popularity.refreshMs,
        log: (message) => console.log(`[search-reranking] ${message}`),
      })
    : undefined;
  const reranking = rerankLearner ? { store: storage.reranking, learner: rerankLearner, minVisitors: popularity.minVisitors, refreshMs: popularity.refreshMs } : undefined;
  const app = await buildInsightsService({ storage, editorTokens, ...(reranking ? { reranking } : {}), logger: process.env.LOG_LEVEL ? { level: process.env.LOG_LEVEL } : false });
  await runService({ name: SEARCH_TEAM_SERVICE_NAME, app, host: settings.host, port: settings.port, onClose: async () => {
      await popularityUpdater?.close();
      await rerankLearner?.close();
      await indexer.close();
      await storage.close();
    },
  });
  console.log(`[${SEARCH_TEAM_SERVICE_NAME}] storage: ${storage.dialect}; editors' search report ${editorTokens.length > 0 ? 'on (editor token)' : 'off: set EDITOR_TOKEN to open it'}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ServiceSettingsError || error instanceof PopularitySettingsError ? error.message : error);
  process.exit(1);
});
