import { openServiceDatabase, type ServiceDatabase } from '@khs/team-service';
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
export interface SurveyStorage {
  surveys: SurveyRepository;
  dialect: ServiceDatabase['dialect'];
  /** Throws when the database cannot be reached (for `/health`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Opens and migrates the survey storage: `<dataDir>/survey.sqlite`, or the `survey` schema with `databaseUrl`. */
export async function openSurveyStorage(options: SurveyStorageOptions): Promise<SurveyStorage> {
  const database = await openServiceDatabase({ name: SURVEY_SERVICE_NAME, migrations: SURVEY_MIGRATIONS, ...options });
  if (database.dialect === 'sqlite') {
    return {
      dialect: 'sqlite',
      surveys: sqliteSurveyRepository(database.sqlite),
      check: async () => void database.sqlite.prepare('SELECT 1').get(),
      close: () => database.close(),
    };
  }
  return {
    dialect: 'postgres',
    surveys: postgresSurveyRepository(database.pool),
    check: async () => void (await database.pool.query('SELECT 1')),
    close: () => database.close(),
  };
}
