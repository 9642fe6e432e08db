/**
 * Indexes the @khs/content articles into the search server at TYPESENSE_URL
 * (or TYPESENSE_PROTOCOL/HOST/PORT, else SEARCH_HOST/SEARCH_PORT) with the
 * admin key TYPESENSE_API_KEY, collection SEARCH_INDEX_NAME.
 * `--recreate` drops the collection first.
 */
import { listArticles } from '@khs/content';
import { DEFAULT_COLLECTION_NAME } from '../indexing/article-schema.js';
import { indexArticles } from '../indexing/index-articles.js';
import { DEV_ADMIN_KEY, typesenseUrlFromEnv } from './env-config.js';

const url = typesenseUrlFromEnv();
const collectionName = process.env.SEARCH_INDEX_NAME ?? DEFAULT_COLLECTION_NAME;
const started = Date.now();
const result = await indexArticles({
  url,
  apiKey: process.env.TYPESENSE_API_KEY ?? DEV_ADMIN_KEY,
  collectionName,
  articles: listArticles(),
  recreate: process.argv.includes('--recreate'),
});
for (const refusal of result.refused) console.error(`[search] refused ${refusal.message}`);
console.log(`[search] indexed ${result.imported} articles into ${collectionName} at ${url} (${result.failed} failed) in ${Date.now() - started} ms`);
if (result.failed > 0) process.exitCode = 1;
