import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSearchServer } from '../src/index.js';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * `PATCH /collections/:name` with `fields` (issue 28). Facts from Typesense's source at the v30
 * curation refactor (`src/core_api.cpp` `patch_update_collection`, `src/collection.cpp`
 * `validate_alter_payload` / `alter` / `batch_alter_data`) and its tests
 * (`test/collection_schema_change_test.cpp` `AlterValidations`, `DropFieldsFromCollection`):
 * - an entry without `drop` adds a field; `{"name", "drop": true}` drops one; changing a field is
 *   a drop and an add of the same name in one request (drop entries are sorted first);
 * - existing documents are validated against the new schema, then re-indexed: an added field
 *   becomes searchable / filterable / facetable over documents stored before the change;
 *   stored documents themselves are not rewritten (a dropped field's value stays in `document`);
 * - the answer is 200 with the request body (its `fields` drops first);
 * - refusals (400): "The `fields` value should be an array of objects containing the field
 *   `name` and other properties.", "Field `id` cannot be altered.", "Field `x` is already part of
 *   the schema: To change this field, drop it first before adding it back to the schema.",
 *   "Field `x` is not part of collection schema.", "Field `x` must have a drop value of `true`.",
 *   "Wrong format for `fields`. It should be an array of objects containing `name`, `type`,
 *   `optional` and `facet` properties.", "Field `x` has an invalid data type `foobar`, see docs
 *   for supported data types.", "Schema change is incompatible with the type of documents already
 *   stored in this collection. Existing data for field `x` cannot be coerced into an int32.",
 *   "Field `x` has been declared in the schema, but is not found in the documents already present
 *   in the collection. If you still want to add this field, set it as `optional: true`."; on
 *   collection creation `drop` answers "Invalid property `drop` on field `x`: it is allowed only
 *   during schema update." A refused change leaves the schema as it was.
 */
const DOCS = [
  { id: '0', title: 'The quick brown fox', points: 100, desc: 'Story about a fox', shelf: 'north', code: 'x1' },
  { id: '1', title: 'The brown lion', points: 200, desc: 'Story about a lion', shelf: 'south', code: 'x2' },
  { id: '2', title: 'A slow tortoise', points: 50, desc: 'Tale of patience', shelf: 'north', code: '7' },
];

describe('PATCH /collections/:name with fields (alter schema)', () => {
  let target: Target;
  let name: string;
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    await target.close();
  });

  const createBooks = async (): Promise<string> => {
    const collection = uniqueName('alter');
    const created = await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: { name: collection, fields: [{ name: 'title', type: 'string' }, { name: 'points', type: 'int32' }], default_sorting_field: 'points' },
    });
    if (created.status !== 201) throw new Error(created.text);
    await http(target.url, 'POST', `/collections/${collection}/documents/import`, { key: target.adminKey, rawBody: DOCS.map((d) => JSON.stringify(d)).join('\n') });
    return collection;
  };
  const patch = (collection: string, body: unknown) => http(target.url, 'PATCH', `/collections/${collection}`, { key: target.adminKey, body });
  const fieldNames = async (collection: string): Promise<string[]> =>
    (await http(target.url, 'GET', `/collections/${collection}`, { key: target.adminKey })).json.fields.map((f: { name: string }) => f.name);

  it('adds fields and indexes the documents stored before the change', async () => {
    name = await createBooks();
    expect(await search(target, name, { q: 'fox', query_by: 'desc' })).toEqual({ code: 404, error: 'Could not find a field named `desc` in the schema.' });
    const response = await patch(name, { fields: [{ name: 'desc', type: 'string' }, { name: 'shelf', type: 'string', facet: true }] });
    expect(response.status).toBe(200);
    expect(response.json.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['desc', 'string'],
      ['shelf', 'string'],
    ]);
    expect(await fieldNames(name)).toEqual(['title', 'points', 'desc', 'shelf']);
    expect(hitIds(await search(target, name, { q: 'story', query_by: 'desc' })).sort()).toEqual(['0', '1']);
    const faceted = await search(target, name, { q: '*', facet_by: 'shelf', filter_by: 'shelf:=north' });
    expect(hitIds(faceted).sort()).toEqual(['0', '2']);
    expect(faceted.facet_counts[0].counts).toEqual([{ count: 2, highlighted: 'north', value: 'north' }]);
    // Every search worker has the new field (searches are spread over the workers).
    for (let i = 0; i < 4; i++) expect((await search(target, name, { q: 'tale', query_by: 'desc' })).found).toBe(1);
    // New documents are validated against the new schema.
    const missing = await http(target.url, 'POST', `/collections/${name}/documents`, { key: target.adminKey, body: { id: '9', title: 'Late', points: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.json.message).toBe('Field `desc` has been declared in the schema, but is not found in the document.');
  });

  it('drops a field: it leaves the schema and the index, the stored documents keep the value', async () => {
    const response = await patch(name, { fields: [{ name: 'shelf', drop: true }] });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ fields: [{ name: 'shelf', drop: true }] });
    expect(await fieldNames(name)).toEqual(['title', 'points', 'desc']);
    expect(await search(target, name, { q: '*', filter_by: 'shelf:=north' })).toEqual({ code: 404, error: 'Could not find a filter field named `shelf` in the schema.' });
    const all = await search(target, name, { q: '*' });
    expect(all.found).toBe(3);
    expect(all.hits.map((h: { document: { shelf: string } }) => h.document.shelf).sort()).toEqual(['north', 'north', 'south']);
  });

  it('changes a field with a drop and an add of the same name (drops first, in any order)', async () => {
    const response = await patch(name, { fields: [{ name: 'points', type: 'string', facet: true }, { name: 'points', drop: true }] });
    expect(response.status).toBe(200);
    expect(response.json.fields[0]).toEqual({ name: 'points', drop: true });
    expect(response.json.fields[1]).toMatchObject({ name: 'points', type: 'string', facet: true });
    const summary = (await http(target.url, 'GET', `/collections/${name}`, { key: target.adminKey })).json;
    expect(summary.fields.find((f: { name: string }) => f.name === 'points')).toMatchObject({ type: 'string', facet: true });
    // Dropping the default sorting field clears it.
    expect(summary.default_sorting_field).toBe('');
    const faceted = await search(target, name, { q: '*', facet_by: 'points' });
    expect(faceted.facet_counts[0].counts.map((c: { value: string }) => c.value).sort()).toEqual(['100', '200', '50']);
    expect(hitIds(await search(target, name, { q: '*', filter_by: 'points:=100' }))).toEqual(['0']);
  });

  it('refuses malformed changes with Typesense messages and leaves the schema as it was', async () => {
    const before = await fieldNames(name);
    const refusals: [unknown, string][] = [
      [{ fields: [] }, 'The `fields` value should be an array of objects containing the field `name` and other properties.'],
      [{ fields: 'desc' }, 'The `fields` value should be an array of objects containing the field `name` and other properties.'],
      [{ fields: [{ type: 'string' }] }, 'The `fields` value should be an array of objects containing the field `name` and other properties.'],
      [{ fields: [{ name: 'id', type: 'int32' }] }, 'Field `id` cannot be altered.'],
      [{ fields: [{ name: 'id', drop: true }, { name: 'id', type: 'string' }] }, 'Field `id` cannot be altered.'],
      [{ fields: [{ name: 'title', type: 'string[]' }] }, 'Field `title` is already part of the schema: To change this field, drop it first before adding it back to the schema.'],
      [{ fields: [{ name: 'age', typezzz: 'int32' }] }, 'Wrong format for `fields`. It should be an array of objects containing `name`, `type`, `optional` and `facet` properties.'],
      [{ fields: [{ name: 'age', drop: true }] }, 'Field `age` is not part of collection schema.'],
      [{ fields: [{ name: 'title', drop: 123 }] }, 'Field `title` must have a drop value of `true`.'],
      [{ fields: [{ name: 'title', drop: true }, { name: 'title', type: 'foobar' }] }, 'Field `title` has an invalid data type `foobar`, see docs for supported data types.'],
      [{ fields: [{ name: 'code', type: 'int32' }] }, 'Schema change is incompatible with the type of documents already stored in this collection. Existing data for field `code` cannot be coerced into an int32.'],
      [
        { fields: [{ name: 'subtitle', type: 'string', optional: false }] },
        'Field `subtitle` has been declared in the schema, but is not found in the documents already present in the collection. If you still want to add this field, set it as `optional: true`.',
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await patch(name, body);
      expect([response.status, response.json?.message], JSON.stringify(body)).toEqual([400, message]);
    }
    expect(await fieldNames(name)).toEqual(before);
    expect((await search(target, name, { q: 'story', query_by: 'desc' })).found).toBe(2);
  });

  it('refuses `drop` when a collection is created', async () => {
    const response = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name: uniqueName('dropped'), fields: [{ name: 'title', type: 'string', drop: true }] } });
    expect([response.status, response.json.message]).toEqual([400, 'Invalid property `drop` on field `title`: it is allowed only during schema update.']);
  });
});

// Embedded only: a real Typesense has its own persistence.
describe('an altered schema across restarts', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'search-engine-alter-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps the added and dropped fields and the documents indexed under them', async () => {
    const keys = { adminApiKey: 'admin', searchOnlyApiKeys: ['search'] };
    const first = await startSearchServer({ port: 0, dataDir, ...keys });
    await http(first.url, 'POST', '/collections', { key: 'admin', body: { name: 'books', fields: [{ name: 'title', type: 'string' }, { name: 'points', type: 'int32' }] } });
    await http(first.url, 'POST', '/collections/books/documents/import', { key: 'admin', rawBody: DOCS.map((d) => JSON.stringify(d)).join('\n') });
    const altered = await http(first.url, 'PATCH', '/collections/books', { key: 'admin', body: { fields: [{ name: 'points', drop: true }, { name: 'desc', type: 'string' }] } });
    expect(altered.status).toBe(200);
    await first.close();

    const second = await startSearchServer({ port: 0, dataDir, ...keys });
    const summary = await http(second.url, 'GET', '/collections/books', { key: 'admin' });
    expect(summary.json.fields.map((f: { name: string }) => f.name)).toEqual(['title', 'desc']);
    const found = await http(second.url, 'POST', '/multi_search', { key: 'search', body: { searches: [{ collection: 'books', q: 'patience', query_by: 'desc' }] } });
    expect(hitIds(found.json.results[0])).toEqual(['2']);
    await second.close();
  });
});
