import { ApiError } from '../api-error.js';
import type { SearchEngine } from '../engine.js';
import { executeSearch } from '../search/execute-search.js';
import { parseSearchParams } from '../search/search-params.js';
import { runUnion } from './union.js';

/** Default `limit_multi_searches`. */
const DEFAULT_MULTI_SEARCH_LIMIT = 50;

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

/**
 * Handles a `POST /multi_search` body; request-level problems throw
 * ApiError(400), per-search problems become `{code, error}` slots.
 */
export function multiSearch(engine: SearchEngine, body: unknown, query: Record<string, string>, embedded: Record<string, string>): { results: unknown[] } | Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
  const searches = (body as Record<string, unknown>).searches;
  if (!Array.isArray(searches)) throw new ApiError(400, 'Missing `searches` array.');
  const limitRaw = embedded.limit_multi_searches ?? query.limit_multi_searches;
  const limit = limitRaw !== undefined && /^\d+$/.test(limitRaw) ? Number(limitRaw) : DEFAULT_MULTI_SEARCH_LIMIT;
  if (searches.length > limit) throw new ApiError(400, 'Number of multi searches exceeds `limit_multi_searches` parameter.');
  const bodies = searches.map((search) => {
    if (typeof search !== 'object' || search === null || Array.isArray(search)) {
      throw new ApiError(400, 'One or more search parameters are malformed.');
    }
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries(search as Record<string, unknown>)) {
      if (value === null || typeof value === 'object') throw new ApiError(400, 'One or more search parameters are malformed.');
      params[key] = String(value);
    }
    return params;
  });
  // Issue 15: `union: true` merges the searches into one result (http/union.ts).
  if ((body as Record<string, unknown>).union === true) return runUnion(engine, body as Record<string, unknown>, bodies, query, embedded);
  const results = bodies.map((params) => {
    const merged = mergeSearchParams([embedded, query, params]);
    try {
      return runSearch(engine, merged.collection, merged);
    } catch (error) {
      if (error instanceof ApiError) return { code: error.status, error: error.message };
      return { code: 500, error: 'Internal error.' };
    }
  });
  return { results };
}
