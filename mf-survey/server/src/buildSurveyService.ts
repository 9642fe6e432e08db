import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { getArticle, getSurvey } from '@khs/content';
import { createServiceApp } from '@khs/team-service';
import type { SurveyStorage } from './storage/openSurveyStorage.js';
import { SURVEY_SERVICE_NAME } from './storage/openSurveyStorage.js';
import { surveyRoutes, type SurveyRoutesOptions } from './surveyRoutes.js';

/** What the survey service is built from. */
export interface SurveyServiceDependencies {
  storage: SurveyStorage;
  /** The service's own edge key (its registry `edgeKeyEnv`). */
  edgeKey: string;
  /** Where surveys are defined. Default: the content store (`@khs/content`). */
  getSurvey?: SurveyRoutesOptions['getSurvey'];
  /** The survey under a public article. Default: the checkout's articles as read once (`@khs/content`); `main.ts` follows the article folder. */
  surveyOfArticle?: SurveyRoutesOptions['surveyOfArticle'];
  logger?: FastifyServerOptions['logger'];
}

/** The survey service's app: `/health` (with a storage check) and the survey calls. */
export async function buildSurveyService(deps: SurveyServiceDependencies): Promise<FastifyInstance> {
  const app = createServiceApp({ name: SURVEY_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check });
  const surveyOf = deps.getSurvey ?? getSurvey;
  const surveyOfArticle = deps.surveyOfArticle ?? ((articleId: string) => surveyOfHandle(surveyOf, getArticle(articleId)?.surveyHandle));
  await app.register(surveyRoutes, { getSurvey: surveyOf, surveyOfArticle, surveys: deps.storage.surveys, edgeKey: deps.edgeKey });
  return app;
}

/** The survey a handle names, or undefined for none. */
export function surveyOfHandle(getSurveyOf: SurveyRoutesOptions['getSurvey'], handle: string | undefined): ReturnType<SurveyRoutesOptions['getSurvey']> {
  return handle ? getSurveyOf(handle) : undefined;
}
