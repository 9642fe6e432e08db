import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import type { PreparedSearch } from './prepared-search.js';
import type { SearchParams } from './search-params.js';
import { topK } from './sort.js';

/** Validates `group_by` like Typesense: known fields, not `id`, facet fields only. */
export function validateGroupBy(collection: Collection, params: SearchParams): void {
  for (const name of params.groupBy) {
    if (name === 'id') throw new ApiError(400, 'Cannot use `id` as a group by field.');
    const field = collection.fieldsByName.get(name);
    if (!field) throw new ApiError(404, `Could not find a field named \`${name}\` in the schema.`);
    if (!field.facet) throw new ApiError(400, `Group by field \`${name}\` should be a facet field.`);
  }
}

/** One result group. */
export interface ResultGroup {
  /** Values of the group fields (fields the documents lack are left out, as Typesense does). */
  key: unknown[];
  /** Hits of the group in rank order (at most `group_limit`). */
  seqs: number[];
  /** True for a group placed by a pinned document (its hits are marked `curated`). */
  curated: boolean;
  /** Documents in the group. */
  found: number;
}

/**
 * Groups matched documents by the `group_by` values, like Typesense's distinct topster:
 * arrays group by their whole value; documents missing a field group together unless
 * `group_missing_values=false` (then each is its own group). Groups rank by their best
 * document; a pinned document puts its group at the pinned position.
 * Returns the first `limit` groups, the group count and each matched document's group.
 */
export function groupDocuments(prepared: PreparedSearch, limit: number): { groups: ResultGroup[]; groupCount: number; groupOf: Int32Array } {
  const { collection, params, matched, pinned, compare } = prepared;
  const groupOf = new Int32Array(collection.seqLimit).fill(-1);
  const ids = new Map<string, number>();
  const members: number[][] = [];
  const best: number[] = [];
  // Columns give cheap keys: a string facet's value ids, a numeric column's number.
  const columns = params.groupBy.map((field) => ({ facet: collection.stringFacets.get(field), numeric: collection.numericColumns.get(field) }));
  const keyOf = (seq: number): string => {
    const parts: string[] = [];
    for (let i = 0; i < params.groupBy.length; i++) {
      const field = params.groupBy[i] as string;
      const { facet, numeric } = columns[i] as (typeof columns)[number];
      if (facet) {
        const valueIds = facet.perDocument[seq];
        if (valueIds && valueIds.length > 0) {
          parts.push(valueIds.join(','));
          continue;
        }
      } else if (numeric) {
        const number = numeric[seq] as number;
        if (number === number) {
          parts.push(String(number));
          continue;
        }
      }
      const value = collection.valueOf(seq, field);
      if (value === undefined || value === null) {
        if (!params.groupMissingValues) return `\u0000${seq}`;
        parts.push('\u0001');
      } else {
        parts.push(JSON.stringify(value));
      }
    }
    return parts.join('\u0002');
  };
  const assign = (seq: number): number => {
    const key = keyOf(seq);
    let id = ids.get(key);
    if (id === undefined) {
      id = members.length;
      ids.set(key, id);
      members.push([]);
      best.push(seq);
    }
    groupOf[seq] = id;
    return id;
  };
  // Pinned documents first, so their groups exist (and absorb ranked documents of the same group).
  const pinnedGroups = new Map<number, number[]>();
  for (const { seq } of pinned) {
    const id = assign(seq);
    const list = pinnedGroups.get(id) ?? [];
    list.push(seq);
    pinnedGroups.set(id, list);
  }
  for (const seq of matched) {
    const id = assign(seq);
    (members[id] as number[]).push(seq);
    if (!pinnedGroups.has(id) && compare(seq, best[id] as number) < 0) best[id] = seq;
  }
  const leaders: number[] = [];
  best.forEach((seq, id) => {
    if (!pinnedGroups.has(id)) leaders.push(seq);
  });
  const topLeaders = topK(leaders, limit, compare);
  const pinnedOrder: { id: number; position: number }[] = [];
  for (const { seq, position } of pinned) {
    const id = groupOf[seq] as number;
    if (!pinnedOrder.some((p) => p.id === id)) pinnedOrder.push({ id, position });
  }

  const toGroup = (id: number): ResultGroup => {
    const pinnedSeqs = pinnedGroups.get(id) ?? [];
    const ranked = topK(members[id] as number[], Math.max(0, params.groupLimit - pinnedSeqs.length), compare);
    const seqs = [...pinnedSeqs.slice(0, params.groupLimit), ...ranked];
    const leader = seqs[0] as number;
    const key = params.groupBy.map((f) => collection.valueOf(leader, f)).filter((v) => v !== undefined && v !== null);
    return { key, seqs, curated: pinnedSeqs.length > 0, found: (members[id] as number[]).length + pinnedSeqs.length };
  };
  // Place pinned groups at their positions among the ranked groups (same rule as for hits).
  const groups: ResultGroup[] = [];
  let p = 0;
  let r = 0;
  while (r < topLeaders.length && groups.length < limit) {
    const next = pinnedOrder[p];
    if (next && next.position === groups.length + 1) {
      groups.push(toGroup(next.id));
      p++;
      continue;
    }
    groups.push(toGroup(groupOf[topLeaders[r++] as number] as number));
  }
  while (p < pinnedOrder.length && groups.length < limit) groups.push(toGroup((pinnedOrder[p++] as { id: number }).id));
  return { groups, groupCount: members.length, groupOf };
}
