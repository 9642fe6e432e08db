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
} from './types.js';
