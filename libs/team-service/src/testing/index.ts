export {
  createTemporaryPostgresSchema,
  POSTGRES_TESTS_SKIPPED_MESSAGE,
  temporaryPostgresSchema,
  testDatabaseUrl,
  type TemporaryPostgresSchema,
} from './temporaryPostgresSchema.js';
export { multipartBody, type FormEntry } from './multipartBody.js';
