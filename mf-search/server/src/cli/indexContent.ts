/**
 * The index command for a deployment: syncs the public articles of the content folder to the search
 * index — only what changed since the last sync, or everything with `--full` — and exits.
 *
 *   npm run index -w mf-search [-- --full]
 *
 * Settings as the search service's (`CONTENT_DIR`, `DATA_DIR`, `TYPESENSE_*`, `SEARCH_INDEX_NAME`).
 */
import { articlesDirFromEnv, contentImagesDir, createLiveArticleStore, formatArticleProblem, listSurveys, readContent, surveysFile } from '@khs/content';
import { ArticleFolderReader } from '@khs/content';
import { fileIndexState } from '../indexing/indexState.js';
import { readIndexerSettings } from '../indexing/contentIndexer.js';
import { syncArticleIndex } from '../indexing/syncArticleIndex.js';
import { recordIndexVersion } from '../indexing/recordIndexVersion.js';
import { searchNodeUrl } from '@khs/search-nodes';

const settings = readIndexerSettings(articlesDirFromEnv());
const full = process.argv.includes('--full');
// The content version as the shell and the service's indexer compute it, taken before the folder
// is read: the index then holds at least this content (recorded as the index version after the sync).
const versionStore = createLiveArticleStore({ dir: settings.contentDir, surveyHandles: new Set(listSurveys().map((s) => s.formHandle)), imagesDir: contentImagesDir });
const contentVersion = versionStore.version();
versionStore.close();
const content = readContent({ articlesDir: settings.contentDir, surveys: surveysFile, imagesDir: contentImagesDir });
for (const problem of content.problems) console.error(`[search-indexer] left out: ${formatArticleProblem(problem)}`);
const folder = new ArticleFolderReader(settings.contentDir, { surveyHandles: new Set(listSurveys().map((s) => s.formHandle)), imagesDir: contentImagesDir }).read();
const started = Date.now();
const result = await syncArticleIndex({ target: settings.target, articles: content.articles, hashes: folder.hashesById, state: fileIndexState(settings.stateFile), full });
await recordIndexVersion(settings.target, contentVersion);
for (const refusal of result.refused) console.error(`[search-indexer] left out: ${refusal.message}`);
console.log(
  `[search-indexer] ${result.full ? 'full' : 'incremental'} sync of "${settings.target.collectionName}" at ${settings.target.nodes.map(searchNodeUrl).join(', ')} in ${Date.now() - started} ms: ` +
    `${result.upserted} upserted, ${result.deleted} deleted, ${result.unchanged} unchanged, ${result.failed} failed`,
);
if (result.failed > 0 || content.problems.length > 0) process.exitCode = 1;
