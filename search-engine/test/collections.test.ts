import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from './support/target.js';

describe('collections: create, retrieve, delete and schema rules', () => {
  let target: Target;
  const created: string[] = [];
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    for (const name of created) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const create = async (body: unknown) => {
    const res = await http(target.url, 'POST', '/collections', { key: target.adminKey, body });
    if (res.status === 201) created.push(res.json.name);
    return res;
  };

  it('creates with 201 and returns the summary with field defaults filled in', async () => {
    const name = uniqueName('products');
    const res = await create({
      name,
      default_sorting_field: 'price',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'brand', type: 'string', facet: true },
        { name: 'price', type: 'float', facet: true },
        { name: 'rating', type: 'int32', optional: true },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name, num_documents: 0, default_sorting_field: 'price', enable_nested_fields: false, token_separators: [], symbols_to_index: [] });
    expect(typeof res.json.created_at).toBe('number');
    const fields = res.json.fields as Record<string, unknown>[];
    expect(fields.map((f) => f.name)).toEqual(['name', 'brand', 'price', 'rating']);
    expect(fields[0]).toMatchObject({ name: 'name', type: 'string', facet: false, optional: false, index: true, sort: false, infix: false, locale: '', stem: false, store: true });
    expect(fields[2]).toMatchObject({ name: 'price', type: 'float', facet: true, sort: true });
    expect(fields[3]).toMatchObject({ name: 'rating', optional: true, sort: true });

    const retrieved = await http(target.url, 'GET', `/collections/${name}`, { key: target.adminKey });
    expect(retrieved.status).toBe(200);
    expect(retrieved.json.fields).toEqual(res.json.fields);
  });

  it('answers 409 for a duplicate name', async () => {
    const name = uniqueName('dup');
    expect((await create({ name, fields: [{ name: 'a', type: 'string' }] })).status).toBe(201);
    const again = await create({ name, fields: [{ name: 'a', type: 'string' }] });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: `A collection with name \`${name}\` already exists.` });
  });

  it('validates the body: bad JSON, missing name, missing fields', async () => {
    const bad = await http(target.url, 'POST', '/collections', { key: target.adminKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ message: 'Bad JSON.' });
    const noName = await create({ fields: [] });
    expect(noName.status).toBe(400);
    expect(noName.json).toEqual({ message: 'Parameter `name` is required.' });
    const noFields = await create({ name: uniqueName('nofields') });
    expect(noFields.status).toBe(400);
    expect(noFields.json).toEqual({ message: 'Parameter `fields` is required.' });
  });

  it('rejects an unknown or optional default_sorting_field with 400', async () => {
    const unknown = await create({ name: uniqueName('dsf'), default_sorting_field: 'nope', fields: [{ name: 'a', type: 'int32' }] });
    expect(unknown.status).toBe(400);
    const optional = await create({ name: uniqueName('dsf'), default_sorting_field: 'a', fields: [{ name: 'a', type: 'int32', optional: true }] });
    expect(optional.status).toBe(400);
  });

  it('returns 404 for unknown collections on retrieve and delete', async () => {
    const retrieve = await http(target.url, 'GET', '/collections/does_not_exist_x', { key: target.adminKey });
    expect(retrieve.status).toBe(404);
    expect(retrieve.json).toEqual({ message: 'Collection not found' });
    const drop = await http(target.url, 'DELETE', '/collections/does_not_exist_x', { key: target.adminKey });
    expect(drop.status).toBe(404);
    expect(drop.json).toEqual({ message: 'No collection with name `does_not_exist_x` found.' });
  });

  it('deletes with 200 and the summary of the dropped collection', async () => {
    const name = uniqueName('drop');
    await create({ name, fields: [{ name: 'a', type: 'string' }] });
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: '{"id":"1","a":"x"}' });
    const drop = await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    expect(drop.status).toBe(200);
    expect(drop.json).toMatchObject({ name, num_documents: 1 });
    const after = await http(target.url, 'GET', `/collections/${name}`, { key: target.adminKey });
    expect(after.status).toBe(404);
  });
});
