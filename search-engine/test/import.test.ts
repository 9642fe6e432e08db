import Typesense from 'typesense';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from './support/target.js';

describe('documents import: actions, per-line results and errors', () => {
  let target: Target;
  let name: string;
  beforeAll(async () => {
    target = await startTarget();
    name = uniqueName('imports');
    const res = await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: {
        name,
        fields: [
          { name: 'title', type: 'string' },
          { name: 'tags', type: 'string[]', facet: true, optional: true },
          { name: 'points', type: 'int32' },
        ],
      },
    });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const importLines = async (lines: string[], query = '') => {
    const res = await http(target.url, 'POST', `/collections/${name}/documents/import${query}`, { key: target.adminKey, rawBody: lines.join('\n'), headers: { 'content-type': 'text/plain' } });
    return res;
  };
  const getDoc = async (id: string) => http(target.url, 'GET', `/collections/${name}/documents/${id}`, { key: target.adminKey });

  it('creates documents and answers one JSON line per input line, no trailing newline', async () => {
    const res = await importLines([JSON.stringify({ id: 'd1', title: 'First', points: 1 }), JSON.stringify({ id: 'd2', title: 'Second', points: 2, tags: ['x'] })]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('{"success":true}\n{"success":true}');
    expect((await getDoc('d1')).json).toEqual({ id: 'd1', title: 'First', points: 1 });
  });

  it('reports per-line errors and still imports the other lines', async () => {
    const res = await importLines(
      [
        JSON.stringify({ id: 'd1', title: 'Again', points: 1 }),
        '{"id": "broken", ',
        JSON.stringify({ id: 7, title: 'Numeric id', points: 1 }),
        JSON.stringify({ id: 'd3', points: 3 }),
        JSON.stringify({ id: 'd4', title: 'Wrong type', points: 'many' }),
        JSON.stringify({ id: 'd5', title: 'Fine', points: 5 }),
      ],
      '?action=create',
    );
    expect(res.status).toBe(200);
    const lines = res.text.split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(6);
    expect(lines[0]).toEqual({ success: false, error: 'A document with id d1 already exists.', code: 409 });
    expect(lines[1]).toMatchObject({ success: false, code: 400 });
    expect(lines[1].error).toMatch(/^Bad JSON/);
    expect(lines[2]).toEqual({ success: false, code: 400, error: "Document's `id` field should be a string." });
    expect(lines[3]).toEqual({ success: false, code: 400, error: 'Field `title` has been declared in the schema, but is not found in the document.' });
    expect(lines[4]).toEqual({ success: false, code: 400, error: 'Field `points` must be an int32.' });
    expect(lines[5]).toEqual({ success: true });
    expect((await getDoc('d5')).status).toBe(200);
    expect((await getDoc('d3')).status).toBe(404);
    expect((await getDoc('d1')).json.title).toBe('First');
  });

  it('upsert replaces the whole document', async () => {
    const res = await importLines([JSON.stringify({ id: 'd2', title: 'Second v2', points: 20 })], '?action=upsert');
    expect(res.text).toBe('{"success":true}');
    expect((await getDoc('d2')).json).toEqual({ id: 'd2', title: 'Second v2', points: 20 });
  });

  it('update changes given fields only and fails for unknown ids', async () => {
    const res = await importLines([JSON.stringify({ id: 'd1', points: 10 }), JSON.stringify({ id: 'nope', points: 1 })], '?action=update');
    const lines = res.text.split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ success: true });
    expect(lines[1]).toEqual({ success: false, code: 404, error: 'Could not find a document with id: nope' });
    expect((await getDoc('d1')).json).toEqual({ id: 'd1', title: 'First', points: 10 });
  });

  it('emplace creates new documents and partially updates existing ones', async () => {
    const res = await importLines([JSON.stringify({ id: 'd1', title: 'First v3' }), JSON.stringify({ id: 'd6', title: 'Sixth', points: 6 })], '?action=emplace');
    expect(res.text).toBe('{"success":true}\n{"success":true}');
    expect((await getDoc('d1')).json).toEqual({ id: 'd1', title: 'First v3', points: 10 });
    expect((await getDoc('d6')).json.title).toBe('Sixth');
  });

  it('return_id and return_doc add the id and the document to result lines', async () => {
    const res = await importLines([JSON.stringify({ id: 'd7', title: 'Seventh', points: 7 }), 'not json'], '?return_id=true&return_doc=true');
    const lines = res.text.split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ success: true, id: 'd7', document: { id: 'd7', title: 'Seventh', points: 7 } });
    expect(lines[1]).toMatchObject({ success: false, code: 400, document: 'not json' });
  });

  it('assigns an id when the document has none', async () => {
    const res = await importLines([JSON.stringify({ title: 'No id', points: 0 })], '?return_id=true');
    const line = JSON.parse(res.text);
    expect(line.success).toBe(true);
    expect(typeof line.id).toBe('string');
    expect((await getDoc(line.id)).json.title).toBe('No id');
  });

  it('rejects an unknown action with 400 and an unknown collection with 404', async () => {
    const badAction = await importLines(['{}'], '?action=merge');
    expect(badAction.status).toBe(400);
    expect(badAction.json).toEqual({ message: 'Parameter `action` must be a create|update|upsert.' });
    const unknown = await http(target.url, 'POST', '/collections/unknown_coll_x/documents/import', { key: target.adminKey, rawBody: '{}' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ message: 'Collection not found' });
  });

  it('works through the official typesense client, which throws ImportError on failed lines', async () => {
    const client = new Typesense.Client({ nodes: [{ url: target.url } as never], apiKey: target.adminKey, logLevel: 'silent' });
    const ok = await client.collections(name).documents().import([{ id: 'c1', title: 'Client', points: 1 }], { action: 'upsert' });
    expect(ok).toEqual([{ success: true }]);
    const failure = await client
      .collections(name)
      .documents()
      .import([{ id: 'c2', title: 'Client two', points: 2 }, { id: 'c3', points: 3 }], { action: 'create' })
      .then(
        () => undefined,
        (error: unknown) => error as { name: string; importResults: { success: boolean }[] },
      );
    expect(failure?.name).toBe('ImportError');
    expect(failure?.importResults.map((r) => r.success)).toEqual([true, false]);
    const summary = await client.collections(name).retrieve();
    expect(summary.num_documents).toBeGreaterThanOrEqual(8);
  });
});
