import { ApiError } from '../api-error.js';
import type { SearchEngine } from '../engine.js';
import { executeSearch } from './execute-search.js';
import { parseSearchParams } from './search-params.js';

/**
 * Merges parameter levels with Typesense's precedence: scoped-key embedded
 * params, then the query string, then the per-search body; `filter_by`
 * values from different levels are AND-combined.
 */
export function mergeSearchParams(levels: Record<string, string>[]): Record<string, string> {
  const merged: Record<string, string> = {};
  const filters: string[] = [];
  for (const level of levels) {
    for (const [key, value] of Object.entries(level)) {
      if (key === 'filter_by') {
        if (value.trim()) filters.push(value);
        continue;
      }
      if (!(key in merged)) merged[key] = value;
    }
  }
  if (filters.length === 1) merged.filter_by = filters[0] as string;
  else if (filters.length > 1) merged.filter_by = filters.map((f) => `(${f})`).join(' && ');
  return merged;
}

/** Runs one search by collection name; throws ApiError. */
export function runSearch(engine: SearchEngine, collectionName: string | undefined, params: Record<string, string>): Record<string, unknown> {
  if (!collectionName) throw new ApiError(400, 'Parameter `collection` is required.');
  const parsed = parseSearchParams(params);
  const collection = engine.get(collectionName);
  if (!collection) throw new ApiError(404, 'Collection not found');
  return executeSearch(collection, parsed);
}

/** A union request's own options (`"union": true` in the body). */
export interface UnionRequest {
  /** Drop a document found by two searches of one collection (body `remove_duplicates`, default true). */
  removeDuplicates: boolean;
}

/** The planned searches of a `POST /multi_search`, and its union options when `"union": true`. */
export interface MultiSearchPlan {
  searches: Record<string, string>[];
  union?: UnionRequest;
}

/**
 * Reads a `POST /multi_search` body into the merged parameters of each
 * search (scoped-key params, then the query string, then the search's own).
 * Request-level problems throw ApiError(400); per-search checks happen later
 * so their errors land in the search's slot. `"union": true` (issue 15) asks
 * for one merged result instead of `results` (run by `runUnion` in a worker).
 */
export function planMultiSearch(body: unknown, query: Record<string, string>, embedded: Record<string, string>, limit: number): MultiSearchPlan {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
  const request = body as Record<string, unknown>;
  const searches = request.searches;
  if (!Array.isArray(searches)) throw new ApiError(400, 'Missing `searches` array.');
  if (searches.length > limit) throw new ApiError(400, 'Number of multi searches exceeds `limit_multi_searches` parameter.');
  const planned = searches.map((search) => {
    if (typeof search !== 'object' || search === null || Array.isArray(search)) {
      throw new ApiError(400, 'One or more search parameters are malformed.');
    }
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(search as Record<string, unknown>)) {
      if (value === null || typeof value === 'object') throw new ApiError(400, 'One or more search parameters are malformed.');
      params[key] = String(value);
    }
    return mergeSearchParams([embedded, query, params]);
  });
  return request.union === true ? { searches: planned, union: { removeDuplicates: request.remove_duplicates !== false } } : { searches: planned };
}
