import { INDEX_VERSION_DOCUMENT_ID, INDEX_VERSION_FIELD, indexVersionCollection } from '../../../src/config/indexVersion.js';
import { searchTargetClient, type SearchTarget } from './syncArticleIndex.js';

function errorStatus(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown }).httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Records what the articles collection now holds (the content version of a completed sync) in
 * the index version collection (`src/config/indexVersion.ts`), creating it when missing. Readers
 * with the search-only key (browsers, the server render, and through it every shell's page cache)
 * key their cached answers on it. Written after the sync, so a reader that sees a version finds
 * at least that content in the index.
 */
export async function recordIndexVersion(target: SearchTarget, version: string): Promise<void> {
  const client = searchTargetClient(target);
  const name = indexVersionCollection(target.collectionName);
  const document = { id: INDEX_VERSION_DOCUMENT_ID, [INDEX_VERSION_FIELD]: version };
  try {
    await client.collections(name).documents().upsert(document);
  } catch (error) {
    if (errorStatus(error) !== 404) throw error;
    try {
      await client.collections().create({ name, fields: [{ name: INDEX_VERSION_FIELD, type: 'string' }] });
    } catch (createError) {
      // Another instance's indexer created it meanwhile.
      if (errorStatus(createError) !== 409) throw createError;
    }
    await client.collections(name).documents().upsert(document);
  }
}

/**
 * Records one more part of the index version (a field of the version document beside the
 * indexer's, such as the learned curations' or the popularity scores' hash; partial update, only
 * when it differs), so every reader's cached answers are refreshed within a read interval. Without
 * a version document (an indexer that has not synced yet) there is nothing cached to refresh.
 */
export async function recordIndexVersionPart(target: SearchTarget, field: string, value: string): Promise<void> {
  const versionDocument = searchTargetClient(target).collections(indexVersionCollection(target.collectionName)).documents(INDEX_VERSION_DOCUMENT_ID);
  try {
    const document = (await versionDocument.retrieve()) as Record<string, unknown>;
    if (document[field] !== value) await versionDocument.update({ [field]: value });
  } catch (error) {
    if (errorStatus(error) !== 404) throw error;
  }
}
