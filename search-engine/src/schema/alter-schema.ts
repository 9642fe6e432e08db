import { ApiError } from '../api-error.js';
import { type CollectionSchema, type FieldDefinition, parseField } from './collection-schema.js';

const FIELDS_VALUE_ERROR = 'The `fields` value should be an array of objects containing the field `name` and other properties.';

/** A checked `fields` change of `PATCH /collections/:name`. */
export interface SchemaAlteration {
  /** The collection's schema after the change (dropped fields gone, added fields last). */
  schema: CollectionSchema;
  /** The request's `fields` as Typesense answers them: drops first, added fields with their defaults. */
  answeredFields: Record<string, unknown>[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the `fields` of a schema change against the current schema like Typesense's
 * `Collection::validate_alter_payload` (src/collection.cpp) and returns the new schema:
 * `{"name", "drop": true}` removes a field (with its nested children), any other entry adds one;
 * changing a field is a drop and an add in the same request (drops are applied first).
 * Throws ApiError(400) with Typesense's messages. Stored documents are checked by the caller.
 */
export function alterSchema(schema: CollectionSchema, rawFields: unknown): SchemaAlteration {
  if (!Array.isArray(rawFields) || rawFields.length === 0) throw new ApiError(400, FIELDS_VALUE_ERROR);
  // Typesense sorts the entries so that drops come first (needed for drop + add of one name).
  const entries = [...rawFields].sort((a, b) => Number(isPlainObject(b) && 'drop' in b) - Number(isPlainObject(a) && 'drop' in a));
  const droppedNames = new Set<string>();
  for (const entry of entries) {
    if (!isPlainObject(entry) || typeof entry.name !== 'string') throw new ApiError(400, FIELDS_VALUE_ERROR);
    if (entry.name === 'id') throw new ApiError(400, 'Field `id` cannot be altered.');
    if ('drop' in entry) droppedNames.add(entry.name);
  }
  const current = new Map(schema.fields.map((field) => [field.name, field]));
  let fields: FieldDefinition[] = [...schema.fields];
  const answeredFields: Record<string, unknown>[] = [];
  for (const entry of entries as Record<string, unknown>[]) {
    const name = entry.name as string;
    if ('drop' in entry) {
      if (entry.drop !== true) throw new ApiError(400, `Field \`${name}\` must have a drop value of \`true\`.`);
      if (!current.has(name)) throw new ApiError(400, `Field \`${name}\` is not part of collection schema.`);
      // Dropping an object field drops its children too.
      fields = fields.filter((field) => field.name !== name && !(schema.enable_nested_fields && field.name.startsWith(`${name}.`)));
      answeredFields.push(entry);
      continue;
    }
    if (current.has(name) && !droppedNames.has(name)) {
      throw new ApiError(400, `Field \`${name}\` is already part of the schema: To change this field, drop it first before adding it back to the schema.`);
    }
    const field = parseField(entry);
    if (field.type === 'object' || field.type === 'object[]') {
      if (!schema.enable_nested_fields) {
        throw new ApiError(400, 'Type `object` or `object[]` can be used only when nested fields are enabled by setting` enable_nested_fields` to true.');
      }
    }
    fields = fields.filter((existing) => existing.name !== name);
    fields.push(field);
    answeredFields.push({ ...field, ...entry });
  }
  return {
    schema: {
      ...schema,
      fields,
      // Typesense clears it when the field is dropped, even when the same request adds it back.
      default_sorting_field: droppedNames.has(schema.default_sorting_field) ? '' : schema.default_sorting_field,
    },
    answeredFields,
  };
}

/**
 * Rewords a stored document's validation error for a schema change, as Typesense does
 * (`validate_alter_payload`): a missing required field and a value that cannot be coerced
 * get their own sentences, anything else is prefixed.
 */
export function alterationError(error: ApiError): ApiError {
  const message = error.message;
  if (message.includes('but is not found in the document.')) {
    return new ApiError(
      error.status,
      `${message.slice(0, -1)}s already present in the collection. If you still want to add this field, set it as \`optional: true\`.`,
    );
  }
  const incompatible = 'Schema change is incompatible with the type of documents already stored in this collection.';
  const parts = message.split('must be');
  if (parts.length === 2) {
    const subject = (parts[0] as string).trim();
    const wanted = (parts[1] as string).trim();
    return new ApiError(error.status, `${incompatible} Existing data for ${subject.charAt(0).toLowerCase()}${subject.slice(1)} cannot be coerced into ${wanted}`);
  }
  if (message.includes('must be')) return new ApiError(error.status, incompatible);
  return new ApiError(error.status, `${incompatible} error: ${message}`);
}
