export { startSearchServer, type RunningSearchServer, type SearchServerOptions, type SearchServerStats } from './http/server.js';
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from './http/limits.js';
export { superviseSearchServer, type SupervisedSearchServer, type SupervisorOptions } from './supervisor/supervise-search-server.js';
export { indexArticles, refuseUnsafeLinks, type IndexableArticle, type IndexArticlesOptions, type IndexArticlesResult, type RefusedArticle } from './indexing/index-articles.js';
export { collectionSchema, DEFAULT_COLLECTION_NAME, type ArticleCollectionSchema } from './indexing/article-schema.js';
export { loadContentSearchSets, type ArticleSearchSets, type SearchSetFile } from './indexing/search-sets.js';
export { parseSearchNodes, searchNodeFromUrl, searchNodeUrl, searchNodeOrigin, searchNodeSettingsFromEnv, type ParsedSearchNodes, type SearchNodeSettings } from './client/search-nodes.js';
export { typesenseUrlFromEnv, DEV_ADMIN_KEY, DEV_SEARCH_KEY } from './cli/env-config.js';
