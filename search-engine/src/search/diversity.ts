import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { isArrayType, isNumericType } from '../schema/collection-schema.js';
import type { SimilarityMetric } from '../sets/curation-set.js';
import type { PreparedSearch } from './prepared-search.js';
import type { SearchParams } from './search-params.js';
import { topK } from './sort.js';

/** Typesense's topster keeps at least this many results; diversity re-ranks all of them. */
const DEFAULT_TOPSTER_SIZE = 250;

/**
 * Checks a matched curation item's `diversity` against the schema, as Typesense's
 * `curate_results` does (src/collection.cpp), and refuses it with `group_by` (src/index.cpp).
 */
export function validateDiversity(collection: Collection, params: SearchParams, metrics: SimilarityMetric[]): void {
  for (const metric of metrics) {
    const field = collection.fieldsByName.get(metric.field);
    if (!field) throw new ApiError(400, `\`${metric.field}\` field not found in the schema.`);
    if (isArrayType(field.type) && !field.facet) throw new ApiError(400, `Enable faceting on \`${metric.field}\` array field to use in diversity.`);
    if (!field.sort && !field.facet) throw new ApiError(400, `Enable sorting/faceting on \`${metric.field}\` field to use in diversity.`);
  }
  if (params.groupBy.length > 0) throw new ApiError(400, 'Diversity is not supported along with group_by.');
}

// `diversityLambda` is read with the other parameters (search-params.ts), which this module's types need.
export { diversityLambda } from './search-params.js';

/** A document's values of a facet field as a set of keys (undefined when it has none). */
function facetKeys(collection: Collection, field: string, seq: number): Set<string> | undefined {
  const facet = collection.stringFacets.get(field);
  if (facet) {
    const ids = facet.perDocument[seq];
    return ids && ids.length > 0 ? new Set(ids.map(String)) : undefined;
  }
  const value = collection.valueOf(seq, field);
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.length > 0 ? new Set(list.map((v) => JSON.stringify(v))) : undefined;
}

/**
 * `similarity_t::calculate` (src/diversity.cpp): per metric, on a facet field Jaccard overlap of
 * the two documents' value sets or 1 when the sets are equal; on a sortable (not facet) field 1
 * for equal values under `equality` only; each times its weight, summed. A document without a
 * value adds nothing. A field in neither index answers 400.
 */
function similarity(collection: Collection, metrics: SimilarityMetric[], a: number, b: number): number {
  let total = 0;
  for (const metric of metrics) {
    const field = collection.fieldsByName.get(metric.field);
    if (field?.facet) {
      const left = facetKeys(collection, metric.field, a);
      const right = facetKeys(collection, metric.field, b);
      if (!left || !right) continue;
      let shared = 0;
      for (const key of left) if (right.has(key)) shared++;
      if (metric.method === 'jaccard') total += (shared / (left.size + right.size - shared)) * metric.weight;
      else if (left.size === right.size && shared === left.size) total += metric.weight;
    } else if (field && (isNumericType(field.type) || field.type === 'bool') && !isArrayType(field.type)) {
      const column = collection.numericColumns.get(metric.field);
      const left = column?.[a];
      const right = column?.[b];
      if (left === undefined || right === undefined || left !== left || right !== right) continue;
      if (metric.method === 'equality' && left === right) total += metric.weight;
    } else {
      throw new ApiError(400, `\`${metric.field}\` field not found in either facet or sort index.`);
    }
  }
  return total;
}

/**
 * The first `limit` ranked documents re-ranked for diversity like Typesense's
 * `Index::populate_result_kvs` (maximal marginal relevance over its topster of
 * max(limit, 250) results): the best document first, then repeatedly the one maximising
 * `λ·relevance − (1−λ)·(its highest similarity to those already chosen)`, ties to the better
 * ranked. Relevance is Typesense's vector distance, -1 for every keyword result, so it only
 * weighs against similarity through λ (λ = 1 keeps the ranking).
 */
export function diversifiedTop(matched: Int32Array, compare: (a: number, b: number) => number, limit: number, collection: Collection, metrics: SimilarityMetric[], lambda: number): number[] {
  const candidates = topK(matched, Math.max(limit, DEFAULT_TOPSTER_SIZE), compare);
  if (candidates.length === 0) return [];
  const relevance = lambda * -1;
  const chosen = [candidates[0] as number];
  // Each remaining candidate's highest similarity to the chosen ones, kept up to date per choice.
  const highest = new Float64Array(candidates.length).fill(Number.NEGATIVE_INFINITY);
  const taken = new Uint8Array(candidates.length);
  taken[0] = 1;
  let last = candidates[0] as number;
  while (chosen.length < candidates.length && chosen.length < limit) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 1; i < candidates.length; i++) {
      if (taken[i]) continue;
      const sim = similarity(collection, metrics, candidates[i] as number, last);
      if (sim > (highest[i] as number)) highest[i] = sim;
      const score = relevance - (1 - lambda) * (highest[i] as number);
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    taken[best] = 1;
    last = candidates[best] as number;
    chosen.push(last);
  }
  return chosen;
}

/** The first `limit` ranked (not pinned) documents of a search: by its sort, or diversified when its curation asks. */
export function rankedSeqs(prepared: PreparedSearch, limit: number): number[] {
  const metrics = prepared.curation?.diversity;
  if (!metrics) return topK(prepared.matched, limit, prepared.compare);
  return diversifiedTop(prepared.matched, prepared.compare, limit, prepared.collection, metrics, prepared.params.diversityLambda);
}
