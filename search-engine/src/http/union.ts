import { ApiError } from '../api-error.js';
import type { SearchEngine } from '../engine.js';
import { parseSearchParams } from '../search/search-params.js';
import { unionPaging, unionSearch } from '../search/union-search.js';
import { mergeSearchParams } from './multi-search.js';

/**
 * `POST /multi_search` with `"union": true`: one merged result instead of `results`.
 * Paging comes from the query string (`page`, `per_page`, `offset`, `limit_hits`);
 * `remove_duplicates` (body, default true). As in Typesense, an error in any search
 * answers 200 with `{ "code", "error" }` for the whole union.
 */
export function runUnion(
  engine: SearchEngine,
  body: Record<string, unknown>,
  bodies: Record<string, string>[],
  query: Record<string, string>,
  embedded: Record<string, string>,
): Record<string, unknown> {
  try {
    const paging = unionPaging(query);
    const searches = bodies.map((params) => {
      const merged = mergeSearchParams([embedded, query, params]);
      const name = merged.collection;
      if (!name) throw new ApiError(400, 'Parameter `collection` is required.');
      const collection = engine.get(name);
      if (!collection) throw new ApiError(404, `\`${name}\` collection not found.`);
      return { collection, params: parseSearchParams(merged) };
    });
    return unionSearch(searches, paging, body.remove_duplicates !== false);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.status, error: error.message };
    return { code: 500, error: 'Internal error.' };
  }
}
