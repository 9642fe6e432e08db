export { openDatabase, type DatabaseOptions } from './openDatabase.js';
export type {
  ContactAttachmentRecord,
  ContactRequestRepository,
  Database,
  DatabaseDialect,
  InsightsEvent,
  InsightsEventRepository,
  NewContactRequest,
  RateLimitCounterRepository,
  RateLimitHit,
  StoredContactRequest,
  SharedWatchlistArticles,
  WatchlistShareRepository,
} from './types.js';
