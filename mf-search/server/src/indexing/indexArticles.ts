import Typesense from 'typesense';
import { isSafeHitUrl, type SearchHit } from 'contracts';
import { collectionSchema } from './articleCollectionSchema.js';
import { type ArticleSearchSets, loadSearchSets } from './searchSets.js';

/** The article fields the index needs: a contracts `SearchHit` (or something richer). */
export type IndexableArticle = SearchHit;

export interface IndexArticlesOptions {
  /** Server base URL, e.g. `http://127.0.0.1:8108` (embedded or a real Typesense). */
  url: string;
  /**
   * Every node of a Typesense cluster (base URLs, `url` among them): a request that fails on one
   * node is retried on the next (the cluster forwards writes to its leader). Default `[url]`.
   */
  nodeUrls?: string[];
  /** Admin API key. */
  apiKey: string;
  collectionName: string;
  articles: Iterable<IndexableArticle>;
  /** Drop and recreate the collection first. Default false (create only if missing). */
  recreate?: boolean;
  /**
   * Leave an existing collection untouched (no import): the "first start"
   * mode of the run command. Ignored with `recreate`. Default false.
   */
  skipIfExists?: boolean;
  /** Documents per import request. Default 1000. */
  batchSize?: number;
  /**
   * Synonym and curation sets to upload (PUT, replacing earlier versions) and attach to the
   * collection, also when the collection already exists. Default: the editors' files in
   * `@khs/content` (`loadSearchSets()`); `false` leaves sets alone.
   */
  searchSets?: ArticleSearchSets | false;
}

function errorStatus(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown }).httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/** An article the indexer did not send: its `url` or `image` is neither relative nor http(s). */
export interface RefusedArticle {
  id: string;
  field: 'url' | 'image';
  /** Names the article, the field and the value, e.g. `article "x": url "javascript:…" is neither relative nor http(s)`. */
  message: string;
}

/** The reason `article` may not be indexed, or undefined: its `url` and `image` must pass `isSafeHitUrl`. */
export function refuseUnsafeLinks(article: Pick<IndexableArticle, 'id' | 'url' | 'image'>): RefusedArticle | undefined {
  for (const field of ['url', 'image'] as const) {
    const value: unknown = article[field];
    if (!isSafeHitUrl(value)) {
      const shown = JSON.stringify(typeof value === 'string' && value.length > 80 ? `${value.slice(0, 80)}…` : value) ?? 'undefined';
      return { id: String(article.id), field, message: `article "${String(article.id)}": ${field} ${shown} is neither relative nor http(s); the article is not indexed` };
    }
  }
  return undefined;
}

function toDocument(article: IndexableArticle): Record<string, unknown> {
  // Only the search-hit fields go to the index; gallery/survey data stay in the content store.
  const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
  const document: Record<string, unknown> = { id, headline, title, intro, content, image, topic, date, url, readingTime, cta };
  if (subline !== undefined) document.subline = subline;
  return document;
}

/** What `indexArticles` did. */
export interface IndexArticlesResult {
  imported: number;
  /** Documents the server refused, plus the refused articles. */
  failed: number;
  /** Articles not sent because a link was unsafe (`refuseUnsafeLinks`); also counted in `failed`. */
  refused: RefusedArticle[];
  searchSets?: 'applied' | 'unsupported';
}

/**
 * Creates the articles collection if missing (or recreates it) and upserts
 * the articles in batches through the official `typesense` client, so the
 * same call indexes the embedded server or a real Typesense cluster.
 * Articles whose `url` or `image` is neither relative nor http(s) are not sent; each is
 * reported in `refused` with a message naming it, and the others are indexed.
 */
export async function indexArticles(options: IndexArticlesOptions): Promise<IndexArticlesResult> {
  const client = new Typesense.Client({
    nodes: (options.nodeUrls ?? [options.url]).map((url) => ({ url: url.replace(/\/+$/, '') }) as never),
    apiKey: options.apiKey,
    connectionTimeoutSeconds: 120,
    numRetries: Math.max(2, options.nodeUrls?.length ?? 1),
    logLevel: 'warn',
    // Indexing is server-to-server (admin key): Node's http transport, also where a test
    // environment defines XMLHttpRequest (jsdom), whose requests the server treats as a web page's.
    axiosAdapter: 'http',
  });
  const collection = client.collections(options.collectionName);
  let searchSets = options.searchSets === undefined ? loadSearchSets() : options.searchSets;
  let setsOutcome: 'applied' | 'unsupported' | undefined;
  if (searchSets) {
    try {
      for (const set of searchSets.synonymSets) await client.apiCall.put(`/synonym_sets/${encodeURIComponent(set.name)}`, { items: set.items });
      for (const set of searchSets.curationSets) await client.apiCall.put(`/curation_sets/${encodeURIComponent(set.name)}`, { items: set.items });
      setsOutcome = 'applied';
    } catch (error) {
      // A server before Typesense 30 has no set routes: index the articles anyway and say so.
      if (errorStatus(error) !== 404) throw error;
      searchSets = false;
      setsOutcome = 'unsupported';
    }
  }
  const setLists = searchSets
    ? { synonym_sets: searchSets.synonymSets.map((s) => s.name), curation_sets: searchSets.curationSets.map((s) => s.name) }
    : {};
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
  // Editors' set changes apply on every run, also to a collection that is not re-imported.
  if (exists && searchSets) await client.apiCall.patch(`/collections/${encodeURIComponent(options.collectionName)}`, setLists);
  if (exists && options.skipIfExists) return setsOutcome ? { imported: 0, failed: 0, refused: [], searchSets: setsOutcome } : { imported: 0, failed: 0, refused: [] };
  if (!exists) await client.collections().create({ ...collectionSchema(options.collectionName), ...setLists } as never);

  const batchSize = options.batchSize ?? 1000;
  let imported = 0;
  let failed = 0;
  const refused: RefusedArticle[] = [];
  let batch: Record<string, unknown>[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const documents = batch;
    batch = [];
    try {
      const results = await collection.documents().import(documents, { action: 'upsert' });
      imported += results.filter((r) => r.success).length;
      failed += results.filter((r) => !r.success).length;
    } catch (error) {
      const results = (error as { importResults?: { success: boolean }[] }).importResults;
      if (!results) throw error;
      imported += results.filter((r) => r.success).length;
      failed += results.filter((r) => !r.success).length;
    }
  };
  for (const article of options.articles) {
    const refusal = refuseUnsafeLinks(article);
    if (refusal) {
      refused.push(refusal);
      failed += 1;
      continue;
    }
    batch.push(toDocument(article));
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return setsOutcome ? { imported, failed, refused, searchSets: setsOutcome } : { imported, failed, refused };
}
