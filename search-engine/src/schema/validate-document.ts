import { ApiError } from '../api-error.js';
import { geopolygonLoop } from '../geo/geopolygon.js';
import type { CollectionSchema, FieldDefinition, FieldType } from './collection-schema.js';

/** A stored document: a JSON object whose `id` is a string. */
export type StoredDocument = Record<string, unknown> & { id: string };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  int32: 'an int32',
  int64: 'an int64',
  float: 'a float',
  bool: 'a bool',
};

/**
 * Coerces one scalar to the field's base type the way `dirty_values=coerce_or_reject`
 * (Typesense's default) does, or returns undefined when it cannot.
 */
function coerceScalar(value: unknown, baseType: string): unknown {
  switch (baseType) {
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'boolean') return String(value);
      return undefined;
    case 'int32':
    case 'int64': {
      let n: number | undefined;
      if (typeof value === 'number') n = value;
      else if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) n = Number(value);
      else if (typeof value === 'boolean') n = value ? 1 : 0;
      if (n === undefined || !Number.isFinite(n)) return undefined;
      if (!Number.isInteger(n)) n = Math.trunc(n);
      if (baseType === 'int32' && (n < INT32_MIN || n > INT32_MAX)) return undefined;
      return n;
    }
    case 'float': {
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      return undefined;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 1) return true;
      if (value === 'false' || value === 0) return false;
      return undefined;
    default:
      return value;
  }
}

/** The type names nlohmann::json puts in its type errors. */
function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * Checks a `geopolygon` value as Typesense does: an array (`src/validator.cpp`) of numbers (read
 * as `std::vector<double>` in `src/index.cpp`, whose JSON type error is the answer) forming a
 * valid S2 polygon (`src/geopolygon_index.cpp`: "Geopolygon for seq_id N is invalid: …", with
 * S2's text). An odd count, which Typesense reads past, is refused here.
 */
function validateGeopolygon(field: FieldDefinition, value: unknown, seq: number): unknown {
  if (!Array.isArray(value)) throw new ApiError(400, `Field \`${field.name}\` must be an array.`);
  for (const item of value) {
    if (typeof item !== 'number') throw new ApiError(400, `[json.exception.type_error.302] type must be number, but is ${jsonTypeName(item)}`);
  }
  if (value.length % 2 !== 0) throw new ApiError(400, `Field \`${field.name}\` must hold pairs of coordinates: [lat1, lng1, lat2, lng2, …].`);
  const built = geopolygonLoop(value as number[]);
  if ('error' in built) throw new ApiError(400, `Geopolygon for seq_id ${seq} is invalid: ${built.error}`);
  return value;
}

/**
 * Coerces a field value to its declared type (Typesense's default `coerce_or_reject`); throws 400.
 * @param seq the document's sequence id, named in a geopolygon's error as Typesense does (default 0)
 */
export function coerceField(field: FieldDefinition, value: unknown, seq = 0): unknown {
  const type: FieldType = field.type;
  if (type === 'geopolygon') return validateGeopolygon(field, value, seq);
  if (type === 'string*' || type === 'auto' || type === 'object' || type === 'object[]' || type === 'image') {
    return value;
  }
  if (type === 'geopoint' || type === 'geopoint[]') {
    const isPoint = (v: unknown): boolean =>
      Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isFinite(n)) && Math.abs(v[0] as number) <= 90 && Math.abs(v[1] as number) <= 180;
    if (type === 'geopoint' && !isPoint(value)) throw new ApiError(400, `Field \`${field.name}\` must be a 2 element array: [lat, lng].`);
    if (type === 'geopoint[]' && !(Array.isArray(value) && value.every(isPoint))) throw new ApiError(400, `Field \`${field.name}\` must be an array of geopoint.`);
    return value;
  }
  if (type.endsWith('[]')) {
    const baseType = type.slice(0, -2);
    if (!Array.isArray(value)) throw new ApiError(400, `Field \`${field.name}\` must be an array.`);
    return value.map((element) => {
      const coerced = coerceScalar(element, baseType);
      if (coerced === undefined) throw new ApiError(400, `Field \`${field.name}\` must be an array of ${baseType}.`);
      return coerced;
    });
  }
  const coerced = coerceScalar(value, type);
  if (coerced === undefined) throw new ApiError(400, `Field \`${field.name}\` must be ${TYPE_WORDS[type] ?? `a ${type}`}.`);
  return coerced;
}

/**
 * Checks a complete document against the schema and returns the stored form
 * (values coerced to their declared types). Throws ApiError(400) per Typesense.
 * @param seq the sequence id the document gets (named in geopolygon errors; default 0)
 */
export function validateDocument(schema: CollectionSchema, raw: Record<string, unknown>, id: string, seq = 0): StoredDocument {
  const document: StoredDocument = { ...raw, id };
  for (const field of schema.fields) {
    if (field.name.includes('*') || field.type === 'auto') continue;
    // Dotted (nested) fields are read along their path when the document is flattened.
    if (schema.enable_nested_fields && field.name.includes('.')) continue;
    const value = document[field.name];
    if (value === undefined || value === null) {
      if (!field.optional) {
        throw new ApiError(400, `Field \`${field.name}\` has been declared in the schema, but is not found in the document.`);
      }
      if (value === null) delete document[field.name];
      continue;
    }
    if (field.name === 'id') continue;
    if (field.type === 'object' || field.type === 'object[]') {
      const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
      const valid = field.type === 'object' ? isObject(value) : Array.isArray(value) && value.every(isObject);
      if (!valid) throw new ApiError(400, `Field \`${field.name}\` has an incorrect type.`);
      continue;
    }
    document[field.name] = coerceField(field, value, seq);
  }
  return document;
}

/** Reads and checks the `id` of an incoming document; undefined when absent. */
export function documentIdOf(raw: Record<string, unknown>): string | undefined {
  if (!('id' in raw) || raw.id === undefined) return undefined;
  if (typeof raw.id !== 'string') throw new ApiError(400, "Document's `id` field should be a string.");
  if (raw.id.length === 0) throw new ApiError(400, 'The `id` should not be empty.');
  return raw.id;
}
