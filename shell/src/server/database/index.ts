export { openDatabase, type DatabaseOptions } from './openDatabase.js';
export type {
  Database,
  DatabaseDialect,
  InsightsEvent,
  InsightsEventRepository,
  RateLimitCounterRepository,
  RateLimitHit,
} from './types.js';
