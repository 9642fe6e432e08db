export { startSearchServer, type RunningSearchServer, type SearchServerOptions, type SearchServerStats } from './http/server.js';
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from './http/limits.js';
export { superviseSearchServer, type SupervisedSearchServer, type SupervisorOptions } from './supervisor/supervise-search-server.js';
export { parseSynonymItem } from './sets/synonym-set.js';
export { parseCurationItem } from './sets/curation-set.js';
export { typesenseUrlFromEnv, DEV_ADMIN_KEY, DEV_SEARCH_KEY } from './cli/env-config.js';
