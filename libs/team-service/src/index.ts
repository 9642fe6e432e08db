export { createServiceApp, type ServiceAppOptions, type ServiceError } from './createServiceApp.js';
export { runService, type RunServiceOptions } from './runService.js';
/** Every line of the service's process as JSON: the first call of its `main` (`@khs/observability`). */
export { startProcessLogs } from '@khs/observability';
export { readServiceSettings, ServiceSettingsError, type ServiceIdentity, type ServiceSettings } from './serviceSettings.js';
export {
  openMigratedPostgresPool,
  openServiceDatabase,
  sqliteFileName,
  type MigratedPostgresPoolOptions,
  type ServiceDatabase,
  type ServiceDatabaseOptions,
} from './database/openServiceDatabase.js';
export { openServiceStorage, type ServiceRepositories, type ServiceStorage } from './database/openServiceStorage.js';
export { migrateSqlite } from './database/migrateSqlite.js';
export { migratePostgres } from './database/migratePostgres.js';
export type { Migration, ServiceMigrations } from './database/migration.js';
export { EDGE_KEY_HEADER, FORM_TOKEN_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER, developmentEdgeKey, edgeKeyOf, isEdgeKey, isLoopbackHost, trustedFormToken, trustedLinkOrigin, trustedVisitorId } from './edge.js';
export { readEdgePolicy, type DeclaredEdgePolicy, type DeclaredEdgeRoute, type DeclaredFormPage, type EdgePolicyReader } from './edgePolicy.js';
