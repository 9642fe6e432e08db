import { ApiError } from '../api-error.js';
import type { SearchEngine } from '../engine.js';
import { parseSearchParams } from './search-params.js';
import { unionPaging, unionSearch } from './union-search.js';

/**
 * `POST /multi_search` with `"union": true`: one merged result instead of `results`.
 * Runs inside one search worker (all collections of the union are in its index).
 * `searches` are already merged (scoped key, query string, search body); paging
 * comes from the query string (`page`, `per_page`, `offset`, `limit_hits`).
 * As in Typesense, an error in any search answers 200 with `{ "code", "error" }`
 * for the whole union.
 */
export function runUnion(engine: SearchEngine, searches: Record<string, string>[], query: Record<string, string>, removeDuplicates: boolean): Record<string, unknown> {
  try {
    const paging = unionPaging(query);
    const parsed = searches.map((merged) => {
      const name = merged.collection;
      if (!name) throw new ApiError(400, 'Parameter `collection` is required.');
      const collection = engine.get(name);
      if (!collection) throw new ApiError(404, `\`${name}\` collection not found.`);
      return { collection, params: parseSearchParams(merged) };
    });
    return unionSearch(parsed, paging, removeDuplicates);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.status, error: error.message };
    return { code: 500, error: 'Internal error.' };
  }
}
