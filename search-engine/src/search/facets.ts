import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { isNumericType } from '../schema/collection-schema.js';
import { osaDistance, typoBudget } from '../text/osa-distance.js';
import { foldedEnd, tokenize, tokenizeWithOffsets } from '../text/tokenize.js';

export interface FacetCount {
  value: string;
  highlighted: string;
  count: number;
}

export interface FacetResult {
  field_name: string;
  sampled: boolean;
  counts: FacetCount[];
  stats: Record<string, number>;
}

/** A parsed `facet_query` (`field:text`). */
export interface FacetQuery {
  field: string;
  words: string[];
}

/** Parses `facet_query`; undefined when empty. Throws 400 like Typesense. */
export function parseFacetQuery(raw: string, facetBy: string[]): FacetQuery | undefined {
  if (raw.trim() === '') return undefined;
  const colon = raw.indexOf(':');
  if (colon < 0) throw new ApiError(400, 'Facet query must be in the `facet_field: value` format.');
  const field = raw.slice(0, colon).trim();
  const text = raw.slice(colon + 1);
  if (!facetBy.includes(field)) {
    throw new ApiError(400, `Facet query refers to a facet field \`${field}\` that is not part of \`facet_by\` parameter.`);
  }
  const words = tokenize(text);
  if (words.length === 0) return undefined;
  return { field, words };
}

/**
 * Resolves `facet_by`: plain names must be facet fields; `*` and `prefix*` expand to the
 * facet fields whose names start with the prefix (schema order; Typesense reports
 * 404 only when no field at all has the prefix). Wildcard entries are flagged so empty
 * ones can be left out of the answer, as Typesense does.
 */
export function expandFacetBy(collection: Collection, facetBy: string[]): { name: string; wildcard: boolean }[] {
  const out: { name: string; wildcard: boolean }[] = [];
  const seen = new Set<string>();
  for (const entry of facetBy) {
    const star = entry.indexOf('*');
    if (star >= 0) {
      if (star !== entry.length - 1) throw new ApiError(404, 'Only prefix matching with a wildcard is allowed.');
      const prefix = entry.slice(0, -1);
      const withPrefix = [...collection.schema.fields, ...collection.discoveredFields].filter((f) => f.name.startsWith(prefix) && !f.name.includes('*'));
      if (withPrefix.length === 0) throw new ApiError(404, `Could not find a facet field for \`${entry}\` in the schema.`);
      for (const field of withPrefix) {
        if (!field.facet || seen.has(field.name)) continue;
        seen.add(field.name);
        out.push({ name: field.name, wildcard: true });
      }
      continue;
    }
    const field = collection.fieldsByName.get(entry);
    if (!field || !field.facet) throw new ApiError(404, `Could not find a facet field named \`${entry}\` in the schema.`);
    out.push({ name: entry, wildcard: false });
  }
  return out;
}

/**
 * Highlights a facet value against facet-query words, or returns undefined
 * when the value does not match every word (last word as a prefix, typos
 * within the length budget allowed).
 */
function matchFacetValue(value: string, words: string[], startTag: string, endTag: string): string | undefined {
  const tokens = tokenizeWithOffsets(value);
  const marks = new Map<number, number>(); // token index → mark end offset
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as string;
    const isLast = w === words.length - 1;
    const budget = typoBudget(word.length);
    let bestIndex = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    let bestEnd = 0;
    tokens.forEach((token, index) => {
      let cost: number;
      let end = token.end;
      if (token.term === word) cost = 0;
      else if (isLast && token.term.startsWith(word)) {
        cost = 0;
        end = foldedEnd(token, word.length - 1);
      } else {
        cost = osaDistance(word, token.term);
        if (isLast && cost > budget) {
          // Typo inside a prefix: wrap as many characters as were typed.
          cost = osaDistance(word, token.term, true);
          end = foldedEnd(token, Math.min(word.length, token.term.length) - 1);
        }
      }
      if (cost <= budget && cost < bestCost) {
        bestCost = cost;
        bestIndex = index;
        bestEnd = end;
      }
    });
    if (bestIndex < 0) return undefined;
    const previous = marks.get(bestIndex);
    marks.set(bestIndex, Math.max(previous ?? 0, bestEnd));
  }
  let out = '';
  let cursor = 0;
  [...marks.entries()]
    .sort((a, b) => a[0] - b[0])
    .forEach(([index, end]) => {
      const token = tokens[index];
      if (!token) return;
      out += value.slice(cursor, token.start) + startTag + value.slice(token.start, end) + endTag;
      cursor = end;
    });
  return out + value.slice(cursor);
}

/** Typesense's order: count desc, then shorter value, then higher byte value. */
function compareCounts(a: FacetCount, b: FacetCount): number {
  if (a.count !== b.count) return b.count - a.count;
  if (a.value.length !== b.value.length) return a.value.length - b.value.length;
  return a.value < b.value ? 1 : a.value > b.value ? -1 : 0;
}

/**
 * Facet counts over all matched documents, one entry per `facet_by` field in
 * order, with stats; `facet_query` keeps only matching values, highlighted.
 * With `groupOf` (group_by), a value counts the distinct groups holding it, as Typesense does.
 */
export function computeFacets(
  collection: Collection,
  facetBy: string[],
  matched: ArrayLike<number>,
  maxFacetValues: number,
  facetQuery: FacetQuery | undefined,
  startTag: string,
  endTag: string,
  groupOf?: Int32Array,
): FacetResult[] {
  // Counts distinct groups per value key instead of documents.
  const groupCounter = () => {
    const groups = new Map<number | string, Set<number>>();
    return {
      add: (key: number | string, seq: number): boolean => {
        let set = groups.get(key);
        if (!set) {
          set = new Set();
          groups.set(key, set);
        }
        const before = set.size;
        set.add(groupOf?.[seq] ?? seq);
        return set.size > before;
      },
    };
  };
  return facetBy.map((name) => {
    const field = collection.fieldsByName.get(name);
    const column = collection.stringFacets.get(name);
    let counts: FacetCount[] = [];
    let stats: Record<string, number>;
    if (column) {
      const perValue = new Int32Array(column.values.length);
      const groups = groupOf ? groupCounter() : undefined;
      for (let i = 0; i < matched.length; i++) {
        const seq = matched[i] as number;
        const ids = column.perDocument[seq];
        if (ids) for (const id of ids) if (!groups || groups.add(id, seq)) perValue[id] = (perValue[id] as number) + 1;
      }
      let distinct = 0;
      perValue.forEach((count, id) => {
        if (count === 0) return;
        distinct++;
        const value = column.values[id] as string;
        counts.push({ value, highlighted: value, count });
      });
      stats = { total_values: distinct };
    } else {
      const perValue = new Map<string, number>();
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      let sum = 0;
      const numeric = field !== undefined && isNumericType(field.type);
      const groups = groupOf ? groupCounter() : undefined;
      for (let i = 0; i < matched.length; i++) {
        const seq = matched[i] as number;
        const raw = collection.valueOf(seq, name);
        const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
        for (const item of list) {
          const key = String(item);
          if (groups && !groups.add(key, seq)) continue;
          perValue.set(key, (perValue.get(key) ?? 0) + 1);
          if (numeric && typeof item === 'number') {
            if (item < min) min = item;
            if (item > max) max = item;
            sum += item;
          }
        }
      }
      counts = [...perValue].map(([value, count]) => ({ value, highlighted: value, count }));
      stats = numeric && perValue.size > 0 ? { min, max, sum, avg: sum / [...perValue.values()].reduce((a, b) => a + b, 0), total_values: perValue.size } : { total_values: perValue.size };
    }
    if (facetQuery && facetQuery.field === name) {
      const kept: FacetCount[] = [];
      for (const entry of counts) {
        const highlighted = matchFacetValue(entry.value, facetQuery.words, startTag, endTag);
        if (highlighted !== undefined) kept.push({ ...entry, highlighted });
      }
      counts = kept;
    }
    counts.sort(compareCounts);
    return { counts: counts.slice(0, maxFacetValues), field_name: name, sampled: false, stats };
  });
}
