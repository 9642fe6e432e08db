export { openDatabase, type DatabaseOptions } from './openDatabase.js';
export type {
  ContactAttachmentRecord,
  ContactRequestRepository,
  Database,
  DatabaseDialect,
  NewContactRequest,
  RateLimitCounterRepository,
  RateLimitHit,
  StoredContactRequest,
} from './types.js';
