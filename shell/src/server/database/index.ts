export { openDatabase, type DatabaseOptions } from './openDatabase.js';
export type {
  Database,
  DatabaseDialect,
  InsightsEvent,
  InsightsEventRepository,
  SharedWatchlistArticles,
  SurveyRepository,
  VoteInput,
  WatchlistShareRepository,
} from './types.js';
