import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { getSurvey } from '@khs/content';
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
  logger?: FastifyServerOptions['logger'];
}

/** The survey service's app: `/health` (with a storage check) and the survey calls. */
export async function buildSurveyService(deps: SurveyServiceDependencies): Promise<FastifyInstance> {
  const app = createServiceApp({ name: SURVEY_SERVICE_NAME, logger: deps.logger, checkStorage: deps.storage.check });
  await app.register(surveyRoutes, { getSurvey: deps.getSurvey ?? getSurvey, surveys: deps.storage.surveys, edgeKey: deps.edgeKey });
  return app;
}
