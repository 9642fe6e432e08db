import Typesense from 'typesense';
import { fixtureCollectionSchema } from '../fixtures/collection-schema.js';
import type { FixtureSearchSets } from '../fixtures/search-sets.js';

/** Options of {@link bulkImport}. */
export interface BulkImportOptions {
  /** Server base URL (the embedded server or a real Typesense). */
  url: string;
  /** Admin API key. */
  apiKey: string;
  collectionName: string;
  /** Documents of the fixture collection's shape (any JSON objects with an `id`). */
  documents: Iterable<object>;
  /** Drop and recreate the collection first. Default false (create only if missing). */
  recreate?: boolean;
  /** Documents per import request. Default 1000. */
  batchSize?: number;
  /** Synonym and curation sets to upload (PUT) and attach to the collection. Default none. */
  searchSets?: FixtureSearchSets;
}

/** What {@link bulkImport} did. */
export interface BulkImportResult {
  imported: number;
  failed: number;
}

function errorStatus(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown }).httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Creates the fixture collection when missing (or recreates it) and upserts `documents` in batches
 * over HTTP through the official `typesense` client (`POST /collections/:name/documents/import`),
 * as an application's indexer would: tests and benches exercise the protocol, not a shortcut.
 */
export async function bulkImport(options: BulkImportOptions): Promise<BulkImportResult> {
  const client = new Typesense.Client({
    nodes: [{ url: options.url.replace(/\/+$/, '') } as never],
    apiKey: options.apiKey,
    connectionTimeoutSeconds: 120,
    numRetries: 2,
    logLevel: 'warn',
    // Server-to-server: Node's http transport, also where a test environment defines XMLHttpRequest.
    axiosAdapter: 'http',
  });
  const collection = client.collections(options.collectionName);
  let exists = true;
  try {
    await collection.retrieve();
  } catch (error) {
    if (errorStatus(error) !== 404) throw error;
    exists = false;
  }
  if (exists && options.recreate) {
    await collection.delete();
    exists = false;
  }
  const sets = options.searchSets;
  if (sets) {
    for (const set of sets.synonymSets) await client.apiCall.put(`/synonym_sets/${encodeURIComponent(set.name)}`, { items: set.items });
    for (const set of sets.curationSets) await client.apiCall.put(`/curation_sets/${encodeURIComponent(set.name)}`, { items: set.items });
  }
  const setLists = sets ? { synonym_sets: sets.synonymSets.map((s) => s.name), curation_sets: sets.curationSets.map((s) => s.name) } : {};
  if (!exists) await client.collections().create({ ...fixtureCollectionSchema(options.collectionName), ...setLists } as never);
  else if (sets) await client.apiCall.patch(`/collections/${encodeURIComponent(options.collectionName)}`, setLists);

  const batchSize = options.batchSize ?? 1000;
  let imported = 0;
  let failed = 0;
  let batch: object[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const documents = batch;
    batch = [];
    let results: { success: boolean }[];
    try {
      results = await collection.documents().import(documents, { action: 'upsert' });
    } catch (error) {
      const partial = (error as { importResults?: { success: boolean }[] }).importResults;
      if (!partial) throw error;
      results = partial;
    }
    imported += results.filter((r) => r.success).length;
    failed += results.filter((r) => !r.success).length;
  };
  for (const document of options.documents) {
    batch.push(document);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { imported, failed };
}
