import { openServiceStorage, type ServiceStorage } from '@khs/team-service';
import { postgresSurveyRepository } from './postgresSurveyRepository.js';
import { sqliteSurveyRepository } from './sqliteSurveyRepository.js';
import { SURVEY_MIGRATIONS } from './surveyMigrations.js';
import type { SurveyRepository } from './surveyRepository.js';

/** The service's name: its SQLite file `survey.sqlite`, its PostgreSQL schema `survey`. */
export const SURVEY_SERVICE_NAME = 'survey';

/** Where the survey service keeps its votes. */
export interface SurveyStorageOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema; default `survey`. */
  schema?: string | undefined;
}

/** The survey service's open storage. */
export type SurveyStorage = ServiceStorage<{ surveys: SurveyRepository }>;

/** Opens and migrates the survey storage: `<dataDir>/survey.sqlite`, or the `survey` schema with `databaseUrl`. */
export async function openSurveyStorage(options: SurveyStorageOptions): Promise<SurveyStorage> {
  return openServiceStorage({ name: SURVEY_SERVICE_NAME, migrations: SURVEY_MIGRATIONS, ...options }, {
    sqlite: (db) => ({ surveys: sqliteSurveyRepository(db) }),
    postgres: (pool) => ({ surveys: postgresSurveyRepository(pool) }),
  });
}
