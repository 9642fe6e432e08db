import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { isArrayType } from '../schema/collection-schema.js';
import { type GeoPoint, nearestDistance } from './geo.js';

/** One effective sort key. */
export interface SortKey {
  field: string;
  descending: boolean;
  /** For `field(lat, lng):asc` on a geopoint field: the reference point (sorts by distance). */
  geo?: GeoPoint;
  /** `exclude_radius`: distances below it (meters) sort as 0, so the next key orders those documents. */
  geoExcludeRadius?: number;
  /** `precision`: distances rounded up to a multiple of it (meters), so the next key orders each bucket. */
  geoPrecision?: number;
}

const FLOAT = /^[-+]?(\d+\.?\d*|\.\d+)$/;

/**
 * Parses the inside of a geo sort key, `lat, lng[, exclude_radius: 2mi | precision: 2 km]`, with
 * Typesense's checks and messages (`src/collection.cpp`, geo branch of the sort_by parsing;
 * `test/collection_sorting_test.cpp` GeoPointSortingWithExcludeRadius / …WithPrecision): at most
 * one option; the value is read as a float (`std::stof`) times 1000 or 1609.34 and truncated to
 * whole meters, which must be positive.
 */
function parseGeoSortKey(field: string, inside: string): Omit<SortKey, 'descending'> {
  const syntaxError = new ApiError(400, `Bad syntax for sorting field \`${field}\``);
  const parts = inside.split(',').map((v) => v.trim()).filter((v) => v !== '');
  if (parts.length !== 2 && parts.length !== 3) throw syntaxError;
  if (!FLOAT.test(parts[0] as string) || !FLOAT.test(parts[1] as string)) throw syntaxError;
  const key: Omit<SortKey, 'descending'> = { field, geo: [Number(parts[0]), Number(parts[1])] };
  const option = parts[2];
  if (option === undefined) return key;
  const isExclude = option.startsWith('exclude_radius');
  if (!isExclude && !option.startsWith('precision')) throw syntaxError;
  const nameAndValue = option.split(':').map((v) => v.trim()).filter((v) => v !== '');
  if (nameAndValue.length !== 2) throw syntaxError;
  const value = nameAndValue[1] as string;
  if (value.length < 2) throw syntaxError;
  const unit = value.slice(-2);
  if (unit !== 'km' && unit !== 'mi') throw new ApiError(400, "Sort field's parameter unit must be either `km` or `mi`.");
  const amount = value.slice(0, -2).trim();
  if (!FLOAT.test(amount)) throw syntaxError;
  const meters = Math.trunc(Math.fround(Number(amount)) * (unit === 'km' ? 1000 : 1609.34));
  if (meters <= 0) throw new ApiError(400, "Sort field's parameter must be a positive number.");
  return isExclude ? { ...key, geoExcludeRadius: meters } : { ...key, geoPrecision: meters };
}

/**
 * A document's geo sort value under a key (Typesense's `Index::compute_sort_scores`): the nearest
 * distance, 0 inside `exclude_radius`, then rounded up to a multiple of `precision`.
 */
function geoSortDistance(collection: Collection, key: SortKey, seq: number): number {
  let distance = nearestDistance(collection, seq, key.field, key.geo as GeoPoint);
  if (key.geoExcludeRadius !== undefined && distance < key.geoExcludeRadius) distance = 0;
  const precision = key.geoPrecision;
  if (precision !== undefined) distance = distance + precision - 1 - ((distance + precision - 1) % precision);
  return distance;
}

/**
 * `geo_distance_meters` of a hit for a geo sort key, as Typesense reports it
 * (`Collection::search`): with `precision` the real nearest distance, otherwise the sort value
 * (so 0 inside `exclude_radius`); 2147483647 for a document without the field.
 */
export function hitGeoDistance(collection: Collection, key: SortKey, seq: number): number {
  return key.geoPrecision !== undefined ? nearestDistance(collection, seq, key.field, key.geo as GeoPoint) : geoSortDistance(collection, key, seq);
}

/** Splits `sort_by` on commas outside parentheses (`location(48.8, 2.3):asc,price:desc`). */
export function splitSortBy(sortBy: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of sortBy) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      if (current.trim()) parts.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

/**
 * Parses `sort_by` and applies Typesense's defaults: `_text_match:desc` is
 * appended to text queries with fewer than 3 keys; without keys, the
 * default sorting field (or `_seq_id`) descending.
 */
export function effectiveSortKeys(collection: Collection, sortBy: string, wildcard: boolean): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of splitSortBy(sortBy)) {
    const colon = part.lastIndexOf(':');
    let field = (colon < 0 ? part : part.slice(0, colon)).trim();
    const order = colon < 0 ? '' : part.slice(colon + 1).trim().toLowerCase();
    const geoMatch = /^([^(]+)\(([^()]*)\)$/.exec(field);
    if (geoMatch) {
      // Geo sort: `location(48.85, 2.34):asc`, optionally with `exclude_radius: 2mi` or `precision: 2mi`.
      field = (geoMatch[1] as string).trim();
      const definition = collection.fieldsByName.get(field);
      if (!definition || (definition.type !== 'geopoint' && definition.type !== 'geopoint[]')) {
        throw new ApiError(404, `Could not find a field named \`${field}\` in the schema for sorting.`);
      }
      const key = parseGeoSortKey(field, geoMatch[2] as string);
      if (order !== 'asc' && order !== 'desc') throw new ApiError(400, `Order for field \`${field}\` should be either ASC or DESC.`);
      keys.push({ ...key, descending: order === 'desc' });
      continue;
    }
    if (order !== 'asc' && order !== 'desc') throw new ApiError(400, `Order for field \`${field}\` should be either ASC or DESC.`);
    if (field !== '_text_match' && field !== '_seq_id') {
      const definition = collection.fieldsByName.get(field);
      if (!definition || !definition.sort || !definition.index || isArrayType(definition.type)) {
        throw new ApiError(404, `Could not find a field named \`${field}\` in the schema for sorting.`);
      }
    }
    keys.push({ field, descending: order === 'desc' });
  }
  const fallback: SortKey = { field: collection.schema.default_sorting_field || '_seq_id', descending: true };
  if (keys.length === 0) {
    return wildcard ? [fallback] : [{ field: '_text_match', descending: true }, fallback];
  }
  if (!wildcard && keys.length < 3 && !keys.some((k) => k.field === '_text_match')) keys.push({ field: '_text_match', descending: true });
  return keys;
}

/**
 * Builds a comparator over sequence ids for the keys; ties end with the
 * sequence id descending (newer first), as Typesense's Topster does.
 */
export function makeComparator(collection: Collection, keys: SortKey[], scores: Float64Array | undefined): (a: number, b: number) => number {
  const parts = keys.map((key) => {
    const sign = key.descending ? -1 : 1;
    if (key.field === '_text_match') {
      return (a: number, b: number): number => (scores ? sign * ((scores[a] as number) - (scores[b] as number)) : 0);
    }
    if (key.field === '_seq_id') return (a: number, b: number): number => sign * (a - b);
    if (key.geo) {
      const distances = new Map<number, number>();
      const distanceOf = (seq: number): number => {
        let distance = distances.get(seq);
        if (distance === undefined) {
          distance = geoSortDistance(collection, key, seq);
          distances.set(seq, distance);
        }
        return distance;
      };
      return (a: number, b: number): number => sign * (distanceOf(a) - distanceOf(b));
    }
    const column = collection.numericColumns.get(key.field);
    if (column) {
      return (a: number, b: number): number => {
        const x = column[a] as number;
        const y = column[b] as number;
        // Missing values sort last in both directions.
        if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : 1;
        if (Number.isNaN(y)) return -1;
        return sign * (x - y);
      };
    }
    return (a: number, b: number): number => {
      const x = collection.valueOf(a, key.field);
      const y = collection.valueOf(b, key.field);
      if (typeof x !== 'string') return typeof y !== 'string' ? 0 : 1;
      if (typeof y !== 'string') return -1;
      return sign * (x < y ? -1 : x > y ? 1 : 0);
    };
  });
  return (a, b) => {
    for (const part of parts) {
      const c = part(a, b);
      if (c !== 0) return c;
    }
    return b - a;
  };
}

/** The first `k` items of `items` in comparator order (heap selection for large inputs). */
export function topK(items: ArrayLike<number>, k: number, compare: (a: number, b: number) => number): number[] {
  if (k <= 0) return [];
  if (items.length <= Math.max(256, k * 4)) return Array.from(items).sort(compare).slice(0, k);
  // Max-heap (by comparator) of the best k seen so far: root is the worst kept item.
  const heap: number[] = [];
  const worse = (a: number, b: number): boolean => compare(a, b) > 0;
  const siftUp = (i: number): void => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i] as number, heap[parent] as number)) break;
      [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
      i = parent;
    }
  };
  const siftDown = (i: number): void => {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && worse(heap[left] as number, heap[largest] as number)) largest = left;
      if (right < heap.length && worse(heap[right] as number, heap[largest] as number)) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as number, heap[i] as number];
      i = largest;
    }
  };
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as number;
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap.length - 1);
    } else if (compare(item, heap[0] as number) < 0) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(compare);
}

/** The value a document sorts by for one key (undefined = missing, sorts last), for comparing across collections. */
export function sortValue(collection: Collection, key: SortKey, seq: number, scores: Float64Array | undefined): number | string | undefined {
  if (key.field === '_text_match') return scores ? (scores[seq] as number) : 0;
  if (key.field === '_seq_id') return seq;
  if (key.geo) return geoSortDistance(collection, key, seq);
  const column = collection.numericColumns.get(key.field);
  if (column) {
    const value = column[seq] as number;
    return Number.isNaN(value) ? undefined : value;
  }
  const value = collection.valueOf(seq, key.field);
  return typeof value === 'string' ? value : undefined;
}

/** Compares two sort values under one key: negative when `x` ranks first; missing values last. */
export function compareSortValues(x: number | string | undefined, y: number | string | undefined, descending: boolean): number {
  if (x === undefined) return y === undefined ? 0 : 1;
  if (y === undefined) return -1;
  const sign = descending ? -1 : 1;
  if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
  const a = String(x);
  const b = String(y);
  return sign * (a < b ? -1 : a > b ? 1 : 0);
}

/** What kind of value a sort key compares (union searches must agree on it). */
export function sortKeyKind(collection: Collection, key: SortKey): string {
  if (key.field === '_text_match') return 'text_match';
  if (key.field === '_seq_id') return 'int64';
  return collection.fieldsByName.get(key.field)?.type ?? 'string';
}
