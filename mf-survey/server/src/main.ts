// Starts the survey service on its own (`npm start -w mf-survey`): its own port (PORT, default from
// the stack registry), its own storage (`$DATA_DIR/survey.sqlite`, or the `survey` schema with
// DATABASE_URL), reached by browsers only through the shell's proxy.
import { articlesDirFromEnv, createLiveArticleStore, getSurvey, siteArticleFolderOptions } from '@khs/content';
import { teamService } from '@khs/stack/registry';
import { readServiceSettings, runService, ServiceSettingsError, startProcessLogs } from '@khs/team-service';
import { buildSurveyService, surveyOfHandle } from './buildSurveyService.js';
import { openSurveyStorage, SURVEY_SERVICE_NAME } from './storage/openSurveyStorage.js';

async function main(): Promise<void> {
  // Every line of this process as JSON, its first one included.
  startProcessLogs(SURVEY_SERVICE_NAME);
  const settings = readServiceSettings(teamService(SURVEY_SERVICE_NAME));
  if (settings.usesDevelopmentEdgeKey) console.log(`[${SURVEY_SERVICE_NAME}] ${teamService(SURVEY_SERVICE_NAME).edgeKeyEnv} is not set: using the public development edge key (loopback only).`);
  const storage = await openSurveyStorage({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl, schema: settings.databaseSchema });
  // The article folder (CONTENT_DIR) watched: which survey an article shows follows its edits without a restart.
  const articles = createLiveArticleStore({ dir: articlesDirFromEnv(), ...siteArticleFolderOptions() });
  const app = await buildSurveyService({
    storage,
    surveyOfArticle: (articleId) => surveyOfHandle(getSurvey, articles.getPublicArticle(articleId)?.surveyHandle),
    edgeKey: settings.edgeKey,
    logger: process.env.LOG_LEVEL ? { level: process.env.LOG_LEVEL } : false,
  });
  await runService({ name: SURVEY_SERVICE_NAME, app, host: settings.host, port: settings.port, onClose: async () => {
    articles.close();
    await storage.close();
  } });
  console.log(`[${SURVEY_SERVICE_NAME}] storage: ${storage.dialect}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ServiceSettingsError ? error.message : error);
  process.exit(1);
});
