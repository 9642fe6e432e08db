import { ApiError } from '../api-error.js';

/** Field types Typesense accepts in a schema. */
export const FIELD_TYPES = [
  'string', 'int32', 'int64', 'float', 'bool', 'geopoint',
  'string[]', 'int32[]', 'int64[]', 'float[]', 'bool[]', 'geopoint[]',
  'geopolygon', 'object', 'object[]', 'string*', 'image', 'auto',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

/** A schema field with every default filled in (the shape Typesense returns). */
export interface FieldDefinition {
  name: string;
  type: FieldType;
  facet: boolean;
  optional: boolean;
  index: boolean;
  sort: boolean;
  infix: boolean;
  locale: string;
  stem: boolean;
  store: boolean;
  stem_dictionary: string;
}

/** A validated collection schema. */
export interface CollectionSchema {
  name: string;
  fields: FieldDefinition[];
  default_sorting_field: string;
  token_separators: string[];
  symbols_to_index: string[];
  enable_nested_fields: boolean;
  created_at: number;
  /** Names of the synonym sets this collection uses (Typesense 30). */
  synonym_sets: string[];
  /** Names of the curation sets this collection uses (Typesense 30). */
  curation_sets: string[];
}

const NUMERIC_TYPES = new Set<FieldType>(['int32', 'int64', 'float', 'int32[]', 'int64[]', 'float[]']);

export function isNumericType(type: FieldType): boolean {
  return NUMERIC_TYPES.has(type);
}

export function isStringType(type: FieldType): boolean {
  return type === 'string' || type === 'string[]' || type === 'string*';
}

export function isArrayType(type: FieldType): boolean {
  return type.endsWith('[]');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalBoolean(raw: Record<string, unknown>, key: string, fallback: boolean, fieldName: string): boolean {
  const value = raw[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ApiError(400, `The \`${key}\` property of the field \`${fieldName}\` should be a boolean.`);
  return value;
}

const FIELD_FORMAT_ERROR = 'Wrong format for `fields`. It should be an array of objects containing `name`, `type`, `optional` and `facet` properties.';

/**
 * Validates a field definition and fills Typesense's defaults (`src/field.cpp`
 * `json_field_to_field`: `name` and `type` must be strings, `drop` only in a schema change).
 */
export function parseField(raw: unknown): FieldDefinition {
  if (!isPlainObject(raw)) throw new ApiError(400, 'Wrong format for `fields`. It should be an array of objects.');
  const name = raw.name;
  if (typeof name !== 'string' || name.length === 0 || typeof raw.type !== 'string') throw new ApiError(400, FIELD_FORMAT_ERROR);
  if (raw.drop !== undefined) throw new ApiError(400, `Invalid property \`drop\` on field \`${name}\`: it is allowed only during schema update.`);
  const type = raw.type;
  if (!(FIELD_TYPES as readonly string[]).includes(type)) {
    throw new ApiError(400, `Field \`${name}\` has an invalid data type \`${String(type)}\`, see docs for supported data types.`);
  }
  const fieldType = type as FieldType;
  const isPattern = name.includes('*') || fieldType === 'auto' || fieldType === 'string*';
  const optional = optionalBoolean(raw, 'optional', false, name);
  if (isPattern && name.includes('*') && raw.optional === false) {
    throw new ApiError(400, `Field \`${name}\` must be an optional field.`);
  }
  const index = optionalBoolean(raw, 'index', true, name);
  const facet = optionalBoolean(raw, 'facet', false, name);
  if (facet && !index) throw new ApiError(400, `Field \`${name}\` cannot be a facet since it's marked as non-indexable.`);
  const isGeo = fieldType === 'geopoint' || fieldType === 'geopoint[]' || fieldType === 'geopolygon';
  const sortDefault = isNumericType(fieldType) || fieldType === 'bool' || isGeo;
  const sort = optionalBoolean(raw, 'sort', sortDefault, name);
  // Typesense (`src/field.cpp`) keeps a sort index for every geo field and refuses to go without.
  if (isGeo && !sort) {
    throw new ApiError(400, `The \`sort\` property of the field \`${name}\` having \`${fieldType}\` type cannot be \`false\`. The sort index is used during GeoSearch.`);
  }
  const locale = raw.locale === undefined ? '' : raw.locale;
  if (typeof locale !== 'string') throw new ApiError(400, `The \`locale\` property of the field \`${name}\` should be a string.`);
  return {
    name,
    type: fieldType,
    facet,
    optional: optional || name.includes('*'),
    index,
    sort,
    infix: optionalBoolean(raw, 'infix', false, name),
    locale,
    stem: optionalBoolean(raw, 'stem', false, name),
    store: optionalBoolean(raw, 'store', true, name),
    stem_dictionary: typeof raw.stem_dictionary === 'string' ? raw.stem_dictionary : '',
  };
}

/**
 * Validates a `POST /collections` body like Typesense does and returns the
 * schema with all defaults. Throws ApiError(400) with Typesense's messages.
 */
export function parseCollectionSchema(body: unknown, now: () => number = () => Math.floor(Date.now() / 1000)): CollectionSchema {
  if (!isPlainObject(body)) throw new ApiError(400, 'Bad JSON.');
  const name = body.name;
  if (name === undefined) throw new ApiError(400, 'Parameter `name` is required.');
  if (typeof name !== 'string' || name.length === 0) throw new ApiError(400, 'Parameter `name` must be a non-empty string.');
  if (body.fields === undefined) throw new ApiError(400, 'Parameter `fields` is required.');
  if (!Array.isArray(body.fields)) throw new ApiError(400, 'Wrong format for `fields`. It should be an array of objects.');
  // Typesense ignores a field named `id` (reserved: the document id is always a string; src/field.cpp).
  const fields = body.fields.filter((raw) => !(isPlainObject(raw) && raw.name === 'id')).map(parseField);
  if (body.enable_nested_fields !== true && fields.some((f) => f.type === 'object' || f.type === 'object[]')) {
    throw new ApiError(400, 'Type `object` or `object[]` can be used only when nested fields are enabled by setting` enable_nested_fields` to true.');
  }
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.name)) throw new ApiError(400, `There are duplicate field names in the schema.`);
    seen.add(field.name);
  }
  const defaultSortingField = body.default_sorting_field ?? '';
  if (typeof defaultSortingField !== 'string') throw new ApiError(400, 'Parameter `default_sorting_field` must be a string.');
  if (defaultSortingField) {
    const field = fields.find((f) => f.name === defaultSortingField);
    if (!field) throw new ApiError(400, `Default sorting field is defined as \`${defaultSortingField}\` but is not found in the schema.`);
    if (!field.sort || isArrayType(field.type) || !(isNumericType(field.type) || field.type === 'bool' || field.type === 'string')) {
      throw new ApiError(400, `Default sorting field \`${defaultSortingField}\` is not a sortable type.`);
    }
    if (field.optional) throw new ApiError(400, `Default sorting field \`${defaultSortingField}\` cannot be an optional field.`);
  }
  const stringList = (key: string): string[] => {
    const value = body[key];
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.length !== 1)) {
      throw new ApiError(400, `\`${key}\` should be an array of character symbols.`);
    }
    return value as string[];
  };
  const setNames = (key: 'synonym_sets' | 'curation_sets', label: string): string[] => {
    const value = body[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ApiError(400, `\`${key}\` should be an array of ${label}.`);
    if (value.some((v) => typeof v !== 'string' || v === '')) throw new ApiError(400, `\`${key}\` should be an array of non-empty strings.`);
    return [...(value as string[])];
  };
  return {
    name,
    fields,
    default_sorting_field: defaultSortingField,
    token_separators: stringList('token_separators'),
    symbols_to_index: stringList('symbols_to_index'),
    enable_nested_fields: body.enable_nested_fields === true,
    created_at: now(),
    synonym_sets: setNames('synonym_sets', 'synonym sets'),
    curation_sets: setNames('curation_sets', 'curation sets'),
  };
}

/** The collection summary Typesense returns from create/retrieve/delete. */
export function collectionSummary(schema: CollectionSchema, numDocuments: number, discoveredFields: FieldDefinition[] = []): Record<string, unknown> {
  return {
    created_at: schema.created_at,
    curation_sets: [...(schema.curation_sets ?? [])],
    default_sorting_field: schema.default_sorting_field,
    enable_nested_fields: schema.enable_nested_fields,
    fields: [...schema.fields, ...discoveredFields].map((f) => ({ ...f })),
    name: schema.name,
    num_documents: numDocuments,
    symbols_to_index: schema.symbols_to_index,
    synonym_sets: [...(schema.synonym_sets ?? [])],
    token_separators: schema.token_separators,
  };
}
