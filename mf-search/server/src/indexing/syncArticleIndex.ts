import Typesense from 'typesense';
import type { Article } from '@khs/content';
import type { SearchNode } from 'contracts';
import type { SearchNodeSettings } from '@khs/search-nodes';
import { collectionSchema } from './articleCollectionSchema.js';
import { refuseUnsafeLinks, type RefusedArticle } from './indexArticles.js';
import { loadSearchSets, type ArticleSearchSets } from './searchSets.js';
import { ARTICLE_DOCUMENT_VERSION, articleDocument } from './articleDocument.js';
import type { IndexState, IndexStateStore } from './indexState.js';

/**
 * Where the indexer writes: a Typesense-protocol server (the embedded one) or a cluster — its
 * `nodes` (a write goes to the next node when one fails) and optional `nearestNode` (tried first),
 * as `searchNodeSettingsFromEnv` reads them.
 */
export interface SearchTarget extends SearchNodeSettings {
  /** Admin API key. */
  apiKey: string;
  collectionName: string;
}

/** What one sync did. */
export interface SyncResult {
  /** Documents sent (new or changed). */
  upserted: number;
  /** Documents removed (file deleted, turned into a draft or rescheduled). */
  deleted: number;
  unchanged: number;
  /** Articles not indexed: refused by the server, or by {@link SyncResult.refused}. */
  failed: number;
  /** Articles left out because their `url` or `image` is neither relative nor http(s) (`isSafeHitUrl`); counted in `failed`. */
  refused: RefusedArticle[];
  /** True when the collection did not exist and was created. */
  created: boolean;
  /** True when every public article was sent (`full`, a new collection, a changed mapping or a lost state). */
  full: boolean;
}

/** Options of {@link syncArticleIndex}. */
export interface SyncOptions {
  target: SearchTarget;
  /** The articles visitors may see now (drafts and scheduled ones are left out by the caller). */
  articles: readonly Article[];
  /** Content hash of each article's source, by id. */
  hashes: ReadonlyMap<string, string>;
  state: IndexStateStore;
  /** Send every article, whatever the state says. Default false. */
  full?: boolean;
  /** Upload the synonym and curation sets and attach them. Default: with `full` or a new collection. */
  searchSets?: ArticleSearchSets | false;
  /** Documents per import request. Default 1000. */
  batchSize?: number;
}

function errorStatus(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown }).httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/** An admin client of the target's nodes: a write goes on to the next node when one is down. */
export function searchTargetClient(target: SearchTarget): InstanceType<typeof Typesense.Client> {
  const clientNode = (node: SearchNode) => ({ host: node.host, port: node.port, protocol: node.protocol, ...(node.path ? { path: node.path } : {}) });
  return new Typesense.Client({
    nodes: target.nodes.map(clientNode),
    ...(target.nearestNode ? { nearestNode: clientNode(target.nearestNode) } : {}),
    apiKey: target.apiKey,
    connectionTimeoutSeconds: 120,
    // Each node once more than there are nodes: a write goes on to the next node when one is down.
    numRetries: target.nodes.length + (target.nearestNode ? 1 : 0) + 1,
    retryIntervalSeconds: 0.1,
    logLevel: 'warn',
  });
}

/**
 * Brings the articles collection in line with the articles: creates it when missing, upserts the
 * articles whose content hash changed and deletes those no longer public, by id — never dropping or
 * emptying the collection, so searches keep finding everything else during a sync.
 */
export async function syncArticleIndex(options: SyncOptions): Promise<SyncResult> {
  const { target } = options;
  const client = searchTargetClient(target);
  const collection = client.collections(target.collectionName);
  let created = false;
  let documentsInIndex = 0;
  try {
    const info = (await collection.retrieve()) as { num_documents?: number };
    documentsInIndex = info.num_documents ?? 0;
  } catch (error) {
    if (errorStatus(error) !== 404) throw error;
    created = true;
  }

  let sets = options.searchSets;
  if (sets === undefined) sets = options.full || created ? loadSearchSets() : false;
  let setLists: Record<string, string[]> = {};
  if (sets) {
    try {
      for (const set of sets.synonymSets) await client.apiCall.put(`/synonym_sets/${encodeURIComponent(set.name)}`, { items: set.items });
      for (const set of sets.curationSets) await client.apiCall.put(`/curation_sets/${encodeURIComponent(set.name)}`, { items: set.items });
      setLists = { synonym_sets: sets.synonymSets.map((s) => s.name), curation_sets: sets.curationSets.map((s) => s.name) };
    } catch (error) {
      // A server before Typesense 30 has no set routes: index the articles anyway.
      if (errorStatus(error) !== 404) throw error;
    }
  }
  if (created) await client.collections().create({ ...collectionSchema(target.collectionName), ...setLists } as never);
  else if (Object.keys(setLists).length > 0) await client.apiCall.patch(`/collections/${encodeURIComponent(target.collectionName)}`, setLists);

  const previous = options.state.load();
  // The state only counts when it describes this collection as it is: else everything is sent again.
  const trusted =
    !options.full &&
    !created &&
    previous !== undefined &&
    previous.documentVersion === ARTICLE_DOCUMENT_VERSION &&
    previous.collection === target.collectionName &&
    Object.keys(previous.hashes).length === documentsInIndex;
  const known: Record<string, string> = trusted ? previous.hashes : {};
  const next: IndexState = { documentVersion: ARTICLE_DOCUMENT_VERSION, collection: target.collectionName, hashes: { ...known } };

  // An unsafe link never reaches the index (the search-engine's indexArticles refuses alike); one
  // indexed before its link turned unsafe is deleted like an article that went.
  const refused: RefusedArticle[] = [];
  const indexable = options.articles.filter((article) => {
    const refusal = refuseUnsafeLinks(article);
    if (refusal) refused.push(refusal);
    return !refusal;
  });
  const changed = indexable.filter((article) => known[article.id] !== options.hashes.get(article.id));
  const publicIds = new Set(indexable.map((article) => article.id));
  const removed = Object.keys(trusted ? known : (previous?.hashes ?? {})).filter((id) => !publicIds.has(id));

  let upserted = 0;
  let failed = refused.length;
  const batchSize = options.batchSize ?? 1000;
  for (let start = 0; start < changed.length; start += batchSize) {
    const batch = changed.slice(start, start + batchSize);
    let results: { success: boolean }[];
    try {
      results = await collection.documents().import(batch.map(articleDocument), { action: 'upsert' });
    } catch (error) {
      const partial = (error as { importResults?: { success: boolean }[] }).importResults;
      if (!partial) throw error;
      results = partial;
    }
    results.forEach((result, index) => {
      const article = batch[index];
      if (!article) return;
      if (result.success) {
        upserted++;
        next.hashes[article.id] = options.hashes.get(article.id) ?? '';
      } else {
        failed++;
        delete next.hashes[article.id];
      }
    });
  }
  let deleted = 0;
  for (const id of removed) {
    try {
      await collection.documents(id).delete();
    } catch (error) {
      if (errorStatus(error) !== 404) throw error;
    }
    delete next.hashes[id];
    deleted++;
  }
  options.state.save(next);
  return { upserted, deleted, unchanged: indexable.length - changed.length, failed, refused, created, full: !trusted };
}
