export { openDatabase, type DatabaseOptions } from './openDatabase.js';
export type {
  Database,
  DatabaseDialect,
  RateLimitCounterRepository,
  RateLimitHit,
} from './types.js';
export type { RateLimitLogRepository } from '../slidingWindows/slidingWindows.js';
