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
  SurveyRepository,
  VoteInput,
  WatchlistShareRepository,
} from './types.js';
