import { createHash } from 'node:crypto';
import { DEFAULT_SEARCH_SETTINGS, POPULARITY_SORT_BY } from 'contracts';
import { INDEX_VERSION_CURATIONS_FIELD } from '../../../src/config/indexVersion.js';
import { recordIndexVersionPart } from '../indexing/recordIndexVersion.js';
import { searchTargetClient, type SearchTarget } from '../indexing/syncArticleIndex.js';
import { RERANK_CANDIDATES, type LearnedReranking } from './rerankLearner.js';

/** The name of the service's own curation set for a collection (the editors' sets keep theirs). */
export function learnedCurationSetName(collectionName: string): string {
  return `${collectionName}_learned_reranking`;
}

/** A curation item as `PUT /curation_sets/:name` takes it. */
export interface LearnedCurationItem {
  id: string;
  rule: { query: string; match: 'exact' };
  includes: { id: string; position: number }[];
  filter_curated_hits: true;
}

/**
 * The learned re-rankings as curation items, in query order: the whole query (`exact`, compared as
 * the server folds it), the lifted results pinned at their positions, and `filter_curated_hits` so
 * a pinned result shows only when it passes the visitor's filters (a topic, say).
 */
export function learnedCurationItems(learned: readonly LearnedReranking[]): LearnedCurationItem[] {
  return [...learned]
    .sort((a, b) => (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    .map((reranking) => ({
      id: `learned-${createHash('sha256').update(reranking.query).digest('hex').slice(0, 20)}`,
      rule: { query: reranking.query, match: 'exact' as const },
      includes: reranking.pins.map((pin) => ({ id: pin.id, position: pin.position })),
      filter_curated_hits: true as const,
    }));
}

/** What the learner needs of the search server. */
export interface LearnedCurationWriter {
  /** The query's first {@link RERANK_CANDIDATES} result ids as the site ranks them, without any curation. */
  organicResults(query: string): Promise<string[]>;
  /**
   * Writes the set (when it changed), attaches it to the collection after the editors' sets (so an
   * editors' rule for a query wins: the first matching item ends the walk), and records its hash in
   * the index version document, so every cached search answer is refreshed within a second.
   */
  apply(learned: readonly LearnedReranking[]): Promise<void>;
}

/**
 * Writes learned re-rankings as a curation set of the service's own through the search server's
 * API (Typesense 30 `/curation_sets`; the same on a real Typesense as on the embedded server).
 */
export function createLearnedCurationWriter(target: SearchTarget): LearnedCurationWriter {
  const client = searchTargetClient(target);
  const setName = learnedCurationSetName(target.collectionName);
  const collectionPath = `/collections/${encodeURIComponent(target.collectionName)}`;
  let writtenHash: string | undefined;

  async function attach(): Promise<void> {
    const info = (await client.apiCall.get(collectionPath, {})) as { curation_sets?: string[] };
    const attached = info.curation_sets ?? [];
    if (attached[attached.length - 1] === setName) return;
    await client.apiCall.patch(collectionPath, { curation_sets: [...attached.filter((name) => name !== setName), setName] });
  }

  return {
    async organicResults(query) {
      const answer = (await client.apiCall.get(`${collectionPath}/documents/search`, {
        q: query,
        query_by: DEFAULT_SEARCH_SETTINGS.queryBy,
        sort_by: POPULARITY_SORT_BY,
        per_page: RERANK_CANDIDATES,
        include_fields: 'id',
        enable_curations: false,
      })) as { hits?: { document: { id: string } }[] };
      return (answer.hits ?? []).map((hit) => hit.document.id);
    },
    async apply(learned) {
      const items = learnedCurationItems(learned);
      const hash = createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 12);
      if (hash !== writtenHash) {
        await client.apiCall.put(`/curation_sets/${encodeURIComponent(setName)}`, { items });
        writtenHash = hash;
      }
      // Every time: the indexer's `--full` run attaches the editors' sets alone.
      await attach();
      await recordIndexVersionPart(target, INDEX_VERSION_CURATIONS_FIELD, hash);
    },
  };
}
