import { performance } from 'node:perf_hooks';
import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { buildHit, type PreparedSearch, prepareSearch } from './execute-search.js';
import { rankedSeqs } from './diversity.js';
import { groupDocuments, type ResultGroup } from './grouping.js';
import type { SearchParams } from './search-params.js';
import { compareSortValues, sortKeyKind, sortValue } from './sort.js';

/** Page settings of a union: the request's top-level `page` / `per_page` / `offset` / `limit_hits`. */
export interface UnionPaging {
  page: number;
  perPage: number;
  offset: number;
  limitHits: number;
}

function unsignedOf(query: Record<string, string>, key: string, fallback: number): number {
  const raw = query[key];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ApiError(400, `Parameter \`${key}\` must be an unsigned integer.`);
  return Number(raw.trim());
}

/** Reads the union's paging from the query string like Typesense's `union_global_params_t`. */
export function unionPaging(query: Record<string, string>): UnionPaging {
  const page = unsignedOf(query, 'page', 0);
  const perPage = unsignedOf(query, 'per_page', 10);
  let offset = unsignedOf(query, 'offset', 0);
  const limitHits = unsignedOf(query, 'limit_hits', 1_000_000);
  if (perPage > 250) throw new ApiError(422, 'Only upto 250 hits can be fetched per page.');
  if (page !== 0 || offset === 0) offset = perPage * ((page === 0 ? 1 : page) - 1);
  return { page: page === 0 ? 1 : page, perPage, offset, limitHits };
}

/** One candidate of the merged list, with its hit already rendered. */
interface UnionEntry {
  searchIndex: number;
  seq: number;
  values: (number | string | undefined)[];
  curated: boolean;
  position: number;
  hit: Record<string, unknown>;
}

/** What the merge needs of one search. */
interface UnionPart {
  collection: Collection;
  params: SearchParams;
  sortKeys: PreparedSearch['sortKeys'];
  found: number;
  ranked: UnionEntry[];
  pinned: UnionEntry[];
}

/**
 * `multi_search` with `union: true`: every search runs on its own collection and the hits
 * are merged into one ranked, paginated list, as Typesense's `Collection::do_union`: the
 * searches must sort on the same kinds of keys in the same order; ties go to the earlier
 * search, then to the newer document; the same document found by two searches of one
 * collection counts once (`remove_duplicates`, default true); pinned hits keep their
 * positions. Each hit names its `collection` and `search_index`. With `group_by` (in every
 * search or none) the groups are merged by their best hits into `grouped_hits`.
 */
export function unionSearch(searches: { collection: Collection; params: SearchParams }[], paging: UnionPaging, removeDuplicates: boolean): Record<string, unknown> {
  const started = performance.now();
  const fetch = Math.min(paging.offset + paging.perPage, paging.limitHits);
  // Each search's candidates and hits are taken before the next search runs: searches of one
  // collection share the text-match scratch memory.
  const parts: UnionPart[] = searches.map(({ collection, params }, searchIndex) => {
    const search = prepareSearch(collection, params);
    const entryOf = (seq: number, curated: boolean, position: number): UnionEntry => ({
      searchIndex,
      seq,
      values: search.sortKeys.map((key) => sortValue(collection, key, seq, search.textMatch?.scores)),
      curated,
      position,
      hit: { ...buildHit(search, seq, curated), collection: collection.name, search_index: searchIndex },
    });
    if (params.groupBy.length > 0) {
      // Typesense (`Collection::do_union`, "grouping support with union search"): each group
      // takes part in the merge through its best hit, and is answered with that hit alone.
      const grouping = groupDocuments(search, fetch);
      const groupEntry = (group: ResultGroup): UnionEntry => {
        const leader = group.seqs[0] as number;
        const position = group.curated ? (search.pinned.find((p) => p.seq === leader)?.position ?? 0) : 0;
        const entry = entryOf(leader, group.curated, position);
        return { ...entry, hit: { found: group.found, group_key: group.key, hits: [entry.hit] } };
      };
      return {
        collection,
        params,
        sortKeys: search.sortKeys,
        found: grouping.groupCount,
        ranked: grouping.groups.filter((group) => !group.curated).map(groupEntry),
        pinned: grouping.groups.filter((group) => group.curated).map(groupEntry),
      };
    }
    return {
      collection,
      params,
      sortKeys: search.sortKeys,
      found: search.matched.length + search.pinned.length,
      ranked: rankedSeqs(search, fetch).map((seq) => entryOf(seq, false, 0)),
      pinned: search.pinned.map((p) => entryOf(p.seq, true, p.position)),
    };
  });
  const first = parts[0];
  parts.forEach((search, index) => {
    if (!first || index === 0) return;
    if (search.params.groupBy.length > 0 !== first.params.groupBy.length > 0) {
      throw new ApiError(400, 'Invalid group_by searches count. All searches with union search should be uniform.');
    }
    if (search.sortKeys.length !== first.sortKeys.length) {
      throw new ApiError(400, `Expected size of \`sort_by\` parameter of all searches to be equal. The first union search sorts on ${first.sortKeys.length} fields but the search at index \`${index}\` sorts on ${search.sortKeys.length}.`);
    }
    search.sortKeys.forEach((key, k) => {
      const firstKey = first.sortKeys[k];
      if (!firstKey) return;
      if (sortKeyKind(search.collection, key) !== sortKeyKind(first.collection, firstKey)) {
        throw new ApiError(400, `Expected type of \`${key.field}\` sort_by at search index \`${index}\` to be the same as the type of \`${firstKey.field}\` sort_by at search index \`0\`.`);
      }
      if (key.descending !== firstKey.descending) {
        throw new ApiError(400, `Expected order of \`${key.field}\` sort_by (${key.descending ? 'DESC' : 'ASC'}) at search index \`${index}\` to be the same as the order of \`${firstKey.field}\` sort_by (${firstKey.descending ? 'DESC' : 'ASC'}) at search index \`0\`.`);
      }
    });
  });
  const grouped = (first?.params.groupBy.length ?? 0) > 0;

  const keys = first?.sortKeys ?? [];
  const compare = (a: UnionEntry, b: UnionEntry): number => {
    for (let k = 0; k < keys.length; k++) {
      const c = compareSortValues(a.values[k], b.values[k], (keys[k] as { descending: boolean }).descending);
      if (c !== 0) return c;
    }
    if (a.searchIndex !== b.searchIndex) return a.searchIndex - b.searchIndex;
    return b.seq - a.seq;
  };
  let found = parts.reduce((sum, part) => sum + part.found, 0);
  const ranked = parts.flatMap((part) => part.ranked);
  const pinned = parts.flatMap((part) => part.pinned);
  const dedupe = (entries: UnionEntry[]): UnionEntry[] => {
    // Grouped unions never remove duplicates (Typesense: `group_limit ? false : remove_duplicates`).
    if (!removeDuplicates || grouped) return entries;
    const seen = new Set<string>();
    return entries.filter((entry) => {
      const id = `${(parts[entry.searchIndex] as UnionPart).collection.name}\u0000${entry.seq}`;
      if (seen.has(id)) {
        found--;
        return false;
      }
      seen.add(id);
      return true;
    });
  };
  const orderedRanked = dedupe(ranked.sort(compare));
  const orderedPinned = dedupe(pinned.sort((a, b) => a.position - b.position || a.searchIndex - b.searchIndex));

  const merged: UnionEntry[] = [];
  let p = 0;
  let r = 0;
  while (r < orderedRanked.length && merged.length < fetch) {
    const next = orderedPinned[p];
    if (next && next.position === merged.length + 1) {
      merged.push(next);
      p++;
      continue;
    }
    merged.push(orderedRanked[r++] as UnionEntry);
  }
  while (p < orderedPinned.length && merged.length < fetch) merged.push(orderedPinned[p++] as UnionEntry);

  const hits = merged.slice(paging.offset).map((entry) => entry.hit);
  const collections = new Set<Collection>(parts.map((s) => s.collection));
  // Grouped: `found` counts groups, and so does `found_docs` (Typesense adds each search's
  // `found_count`, which is its number of groups, to both).
  const page = grouped ? { found, found_docs: found, grouped_hits: hits } : { found, hits };
  return {
    ...page,
    out_of: [...collections].reduce((sum, c) => sum + c.size, 0),
    page: paging.page,
    search_cutoff: false,
    search_time_ms: Math.round(performance.now() - started),
    union_request_params: parts.map((search) => ({
      collection_name: search.collection.name,
      first_q: search.params.q,
      found: search.found,
      per_page: paging.perPage,
      q: search.params.q,
    })),
  };
}
