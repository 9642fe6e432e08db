import { ApiError } from '../api-error.js';
import { type CollectionSchema, type FieldDefinition, type FieldType, isNumericType } from './collection-schema.js';

/** Leaves of one dotted path: their values and whether an array lay on the way. */
interface PathLeaves {
  values: unknown[];
  inArray: boolean;
  /** True when an array of objects lay on the way (children must then be array types). */
  inObjectArray: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows `parts` through objects and arrays (arrays fan out), collecting the values at the end. */
function collectPath(value: unknown, parts: string[], index: number, out: PathLeaves, inArray: boolean): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    out.inArray = true;
    for (const element of value) {
      if (isPlainObject(element) && index < parts.length) out.inObjectArray = true;
      collectPath(element, parts, index, out, true);
    }
    return;
  }
  if (index === parts.length) {
    out.values.push(value);
    if (inArray) out.inArray = true;
    return;
  }
  if (!isPlainObject(value)) return;
  collectPath(value[parts[index] as string], parts, index + 1, out, inArray);
}

/** Primitive leaves under an object value, by dotted name (arrays of objects fan out). */
function collectLeaves(value: unknown, name: string, out: Map<string, PathLeaves>, inArray: boolean, inObjectArray: boolean): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const element of value) collectLeaves(element, name, out, true, inObjectArray || isPlainObject(element));
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) collectLeaves(child, `${name}.${key}`, out, inArray, inObjectArray);
    return;
  }
  let leaves = out.get(name);
  if (!leaves) {
    leaves = { values: [], inArray: false, inObjectArray: false };
    out.set(name, leaves);
  }
  leaves.values.push(value);
  if (inArray) leaves.inArray = true;
  if (inObjectArray) leaves.inObjectArray = true;
}

function detectType(sample: unknown, inArray: boolean): FieldType | undefined {
  let base: string | undefined;
  if (typeof sample === 'string') base = 'string';
  else if (typeof sample === 'boolean') base = 'bool';
  else if (typeof sample === 'number') base = Number.isInteger(sample) ? 'int64' : 'float';
  if (!base) return undefined;
  return (inArray ? `${base}[]` : base) as FieldType;
}

/** The flattened view of a nested document plus child fields seen for the first time. */
export interface FlattenedDocument {
  values: Record<string, unknown>;
  discovered: FieldDefinition[];
}

/**
 * Flattens a document of a collection with `enable_nested_fields`, like Typesense's
 * `field::flatten_doc`: every primitive under a declared `object` / `object[]` field becomes
 * a dotted field (`hierarchicalCategories.lvl0`) typed by its value (int64, float, string,
 * bool; an array type when an array lies on the way), inheriting the object field's
 * settings (facet, index, …) and optional; declared dotted fields are read along their path
 * and must have their declared type (inside an array of objects, an array type).
 * `known` holds the fields already known (declared or discovered earlier).
 */
export function flattenDocument(schema: CollectionSchema, known: Map<string, FieldDefinition>, document: Record<string, unknown>, coerce: (field: FieldDefinition, value: unknown) => unknown): FlattenedDocument {
  const values: Record<string, unknown> = {};
  const discovered: FieldDefinition[] = [];
  for (const field of schema.fields) {
    if (!field.name.includes('.') || field.type === 'object' || field.type === 'object[]') continue;
    const leaves: PathLeaves = { values: [], inArray: false, inObjectArray: false };
    collectPath(document, field.name.split('.'), 0, leaves, false);
    if (leaves.values.length === 0) {
      if (!field.optional) throw new ApiError(400, `Field \`${field.name}\` has been declared in the schema, but is not found in the document.`);
      continue;
    }
    const isArrayField = field.type.endsWith('[]');
    if (leaves.inObjectArray && !isArrayField) {
      throw new ApiError(400, `Field \`${field.name}\` has an incorrect type. Hint: field inside an array of objects must be an array type as well.`);
    }
    values[field.name] = coerce(field, isArrayField ? leaves.values : leaves.values[0]);
  }
  for (const field of schema.fields) {
    if (field.type !== 'object' && field.type !== 'object[]') continue;
    const root = field.name.includes('.') ? (() => {
      const leaves: PathLeaves = { values: [], inArray: false, inObjectArray: false };
      collectPath(document, field.name.split('.'), 0, leaves, false);
      return leaves.values.length === 0 ? undefined : leaves.values.length === 1 ? leaves.values[0] : leaves.values;
    })() : document[field.name];
    if (root === undefined || root === null) continue;
    if (!field.index) continue;
    const leaves = new Map<string, PathLeaves>();
    collectLeaves(root, field.name, leaves, field.type === 'object[]', field.type === 'object[]');
    for (const [name, leaf] of leaves) {
      const declared = schema.fields.some((f) => f.name === name);
      if (declared) continue;
      let definition = known.get(name) ?? discovered.find((d) => d.name === name);
      if (!definition) {
        const type = detectType(leaf.values[0], leaf.inArray);
        if (!type) continue;
        definition = {
          ...field,
          name,
          type,
          optional: true,
          sort: field.sort || (!type.endsWith('[]') && (isNumericType(type) || type === 'bool')),
        };
        discovered.push(definition);
      }
      const isArrayField = definition.type.endsWith('[]');
      values[name] = coerce(definition, isArrayField ? leaf.values : leaf.values[0]);
    }
  }
  return { values, discovered };
}

/**
 * Puts a value computed for a dotted field back into the document's shape (for
 * highlights): `a.b` → `{ a: { b: v } }`; when `a` is an array of objects, per element
 * `{ a: [{ b: v0 }, { b: v1 }] }` (`perElement` gives each element's value).
 */
export function nestValue(target: Record<string, unknown>, document: Record<string, unknown>, dotted: string, whole: unknown, perElement: (index: number) => unknown): void {
  const parts = dotted.split('.');
  let into: Record<string, unknown> = target;
  let source: unknown = document;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i] as string;
    source = isPlainObject(source) ? source[key] : undefined;
    if (Array.isArray(source)) {
      const rest = parts.slice(i + 1).join('.');
      const list = (Array.isArray(into[key]) ? into[key] : source.map(() => ({}))) as Record<string, unknown>[];
      source.forEach((element, index) => {
        const slot = list[index] ?? {};
        list[index] = slot;
        nestValue(slot, isPlainObject(element) ? element : {}, rest, perElement(index), () => undefined);
      });
      into[key] = list;
      return;
    }
    const next = isPlainObject(into[key]) ? (into[key] as Record<string, unknown>) : {};
    into[key] = next;
    into = next;
  }
  if (whole !== undefined) into[parts[parts.length - 1] as string] = whole;
}
