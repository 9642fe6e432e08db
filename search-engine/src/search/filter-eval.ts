import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { isNumericType } from '../schema/collection-schema.js';
import { foldedKey, tokenize } from '../text/tokenize.js';
import { type FilterNode, type FilterOperator, type FilterValue, parseFilter } from '../filter/filter-parser.js';
import { evaluateGeoClause, extractGeoClauses, type GeoClause } from './geo.js';

const PARSE_ERROR = 'Could not parse the filter query.';

/**
 * Evaluates a `filter_by` expression to a mask over sequence ids
 * (1 = live document that passes). Throws ApiError 400/404 like Typesense.
 */
export function evaluateFilter(collection: Collection, filterBy: string): Uint8Array {
  // Geo clauses (`location:(lat, lng, 5 km)`, polygons) are taken out before parsing (geo.ts).
  const geo = extractGeoClauses(filterBy);
  const tree = parseFilter(geo.filterBy);
  return evaluateNode(collection, tree, geo.clauses);
}

type GeoClauses = Map<string, GeoClause>;

function evaluateNode(collection: Collection, node: FilterNode, geo: GeoClauses): Uint8Array {
  if (node.kind === 'clause') {
    const geoClause = geo.get(node.field);
    if (geoClause) return evaluateGeoClause(collection, geoClause);
    if (node.field === 'id') return evaluateIdClause(collection, node.operator, node.values);
    return evaluateClause(collection, node.field, node.operator, node.values);
  }
  const left = evaluateNode(collection, node.left, geo);
  const right = evaluateNode(collection, node.right, geo);
  if (node.kind === 'and') for (let i = 0; i < left.length; i++) left[i] = (left[i] as number) & (right[i] as number);
  else for (let i = 0; i < left.length; i++) left[i] = (left[i] as number) | (right[i] as number);
  return left;
}

/** How an operator the parser split off is spelled (Typesense reads it as part of an `id` value). */
const OPERATOR_SPELLING: Partial<Record<FilterOperator, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=', notMatch: '!' };

/**
 * An `id` clause as Typesense's `toFilter` reads it (src/filter.cpp): `id:x`, `id:=x`,
 * `id:[a, b]` match document ids exactly (case-sensitive, never folded, a schema field named
 * `id` is not consulted); `id:!=x` / `id:!=[…]` negate; `*` means every document; unknown ids
 * are skipped. Any other operator is read as part of the id (`id:>5` looks for the id `>5`).
 */
function evaluateIdClause(collection: Collection, operator: FilterOperator, values: FilterValue[]): Uint8Array {
  const limit = collection.seqLimit;
  const live = collection.live;
  const chosen = new Uint8Array(limit);
  let everything = false;
  for (const value of values) {
    const spelledOperator = OPERATOR_SPELLING[value.operator ?? operator] ?? '';
    const id = spelledOperator + value.text;
    if (id === '*') everything = true;
    const seq = collection.seqById.get(id);
    if (seq !== undefined) chosen[seq] = 1;
  }
  const negate = operator === 'notExact';
  const mask = new Uint8Array(limit);
  for (let seq = 0; seq < limit; seq++) {
    if (live[seq] !== 1) continue;
    const hit = everything || chosen[seq] === 1;
    mask[seq] = hit !== negate ? 1 : 0;
  }
  return mask;
}

const isNegation = (op: FilterOperator): boolean => op === 'notExact' || op === 'notMatch';

function evaluateClause(collection: Collection, fieldName: string, operator: FilterOperator, values: FilterValue[]): Uint8Array {
  const field = collection.fieldsByName.get(fieldName);
  if (!field || !field.index) throw new ApiError(404, `Could not find a filter field named \`${fieldName}\` in the schema.`);
  const limit = collection.seqLimit;
  const mask = new Uint8Array(limit);
  const type = field.type;
  const live = collection.live;
  if (type === 'string' || type === 'string[]') {
    const positives = isNegation(operator) ? (operator === 'notExact' ? 'exact' : 'match') : operator;
    if (positives !== 'exact' && positives !== 'match') throw new ApiError(400, PARSE_ERROR);
    const hits = positives === 'exact' ? exactStringMatches(collection, fieldName, values) : wordMatches(collection, fieldName, values);
    const negate = isNegation(operator);
    for (let seq = 0; seq < limit; seq++) {
      if (live[seq] === 1) mask[seq] = negate ? 1 - (hits[seq] as number) : (hits[seq] as number);
    }
    return mask;
  }
  if (isNumericType(type) || type === 'bool') {
    if (operator === 'notMatch') throw new ApiError(400, PARSE_ERROR);
    const isBool = type === 'bool';
    // Every value becomes an inclusive [low, high] interval (open ends as ±Infinity, strictness by nudging).
    const intervals = values.map((value) => numericInterval(value, operator, isBool));
    const lows = Float64Array.from(intervals, (i) => i[0]);
    const highs = Float64Array.from(intervals, (i) => i[1]);
    const count = intervals.length;
    const column = collection.numericColumns.get(fieldName);
    const negate = operator === 'notExact' ? 1 : 0;
    const inside = (v: number): boolean => {
      for (let k = 0; k < count; k++) if (v >= (lows[k] as number) && v <= (highs[k] as number)) return true;
      return false;
    };
    for (let seq = 0; seq < limit; seq++) {
      if (live[seq] !== 1) continue;
      let matched = false;
      if (column) {
        const v = column[seq] as number;
        matched = v === v && inside(v); // v === v excludes NaN (missing)
      } else {
        const raw = collection.valueOf(seq, fieldName);
        const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
        matched = list.some((item) => {
          const v = typeof item === 'boolean' ? (item ? 1 : 0) : typeof item === 'number' ? item : Number.NaN;
          return v === v && inside(v);
        });
      }
      mask[seq] = (matched ? 1 : 0) ^ negate;
    }
    return mask;
  }
  throw new ApiError(400, PARSE_ERROR);
}

function parseNumber(text: string, isBool: boolean): number {
  const trimmed = text.trim();
  if (isBool) {
    if (trimmed === 'true') return 1;
    if (trimmed === 'false') return 0;
    throw new ApiError(400, PARSE_ERROR);
  }
  if (trimmed === '' || !Number.isFinite(Number(trimmed))) throw new ApiError(400, PARSE_ERROR);
  return Number(trimmed);
}

function numericInterval(value: FilterValue, clauseOperator: FilterOperator, isBool: boolean): [number, number] {
  if (value.range) return [parseNumber(value.range[0], isBool), parseNumber(value.range[1], isBool)];
  const operator = value.operator ?? clauseOperator;
  const n = parseNumber(value.text, isBool);
  switch (operator) {
    case 'gt':
      return [nextUp(n), Number.POSITIVE_INFINITY];
    case 'gte':
      return [n, Number.POSITIVE_INFINITY];
    case 'lt':
      return [Number.NEGATIVE_INFINITY, nextDown(n)];
    case 'lte':
      return [Number.NEGATIVE_INFINITY, n];
    default:
      return [n, n];
  }
}

const scratch = new Float64Array(1);
const scratchBits = new BigInt64Array(scratch.buffer);

/** The next representable double above n (so `> n` becomes `>= nextUp(n)`). */
function nextUp(n: number): number {
  if (n === 0) return Number.MIN_VALUE;
  scratch[0] = n;
  scratchBits[0] = (scratchBits[0] as bigint) + (n > 0 ? 1n : -1n);
  return scratch[0] as number;
}

function nextDown(n: number): number {
  return -nextUp(-n);
}

/** Documents whose field (or an element of it) equals one of the values, compared folded. */
function exactStringMatches(collection: Collection, fieldName: string, values: FilterValue[]): Uint8Array {
  const limit = collection.seqLimit;
  const hits = new Uint8Array(limit);
  const wanted = new Set(values.map((v) => foldedKey(v.text)));
  const facet = collection.stringFacets.get(fieldName);
  if (facet) {
    // Walk only the documents holding a wanted value.
    facet.foldedValues.forEach((folded, id) => {
      if (!wanted.has(folded)) return;
      const list = facet.valueDocuments[id];
      if (!list) return;
      const ids = list.ids;
      for (let i = 0; i < list.length; i++) hits[ids[i] as number] = 1;
    });
    return hits;
  }
  for (let seq = 0; seq < limit; seq++) {
    const raw = collection.valueOf(seq, fieldName);
    const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    if (list.some((item) => typeof item === 'string' && wanted.has(foldedKey(item)))) hits[seq] = 1;
  }
  return hits;
}

/** Documents whose field contains all words of one of the values (`word*` = prefix). */
function wordMatches(collection: Collection, fieldName: string, values: FilterValue[]): Uint8Array {
  const hits = new Uint8Array(collection.seqLimit);
  const text = collection.textFields.get(fieldName);
  if (!text) return hits;
  for (const value of values) {
    const isPrefix = value.text.endsWith('*');
    const words = tokenize(isPrefix ? value.text.slice(0, -1) : value.text);
    if (words.length === 0) continue;
    let current: Uint8Array | undefined;
    words.forEach((word, index) => {
      const wordHits = new Uint8Array(collection.seqLimit);
      const termIds =
        isPrefix && index === words.length - 1
          ? collection.dictionary.prefixExpansions(word, Number.MAX_SAFE_INTEGER)
          : [collection.dictionary.lookup(word)].filter((id): id is number => id !== undefined);
      for (const termId of termIds) {
        const list = text.postings[termId];
        if (!list) continue;
        for (let i = 0; i < list.length; i++) wordHits[list.ids[i] as number] = 1;
      }
      if (!current) current = wordHits;
      else for (let i = 0; i < current.length; i++) current[i] = (current[i] as number) & (wordHits[i] as number);
    });
    if (current) for (let i = 0; i < hits.length; i++) hits[i] = (hits[i] as number) | (current[i] as number);
  }
  return hits;
}
