import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * `filter_by` on `id` (issue 28). Facts from Typesense's source at the v30 curation refactor
 * (`src/filter.cpp` `toFilter`, `src/filter_result_iterator.cpp`):
 * - `id` is handled before the schema is consulted: `id:x` and `id:=x` match the document whose
 *   id is exactly `x` (the id is looked up in the store, so case-sensitive and never tokenised);
 *   `id:[a, b]` matches any listed id, unknown ids are skipped; `id:!=x` / `id:!=[…]` keep every
 *   other document (`apply_not_equals`); `*` stands for every document (`id:!=*` matches none).
 * - Any other operator is not split off: `id:>a1` looks up the id `>a1`.
 * - An empty value answers 400 "Error with filter field `id`: Filter value cannot be empty.";
 *   an empty list `id:[]` names no document (no error).
 * - `id` clauses combine with other clauses through `&&`, `||` and parentheses like any clause.
 */
describe('filter_by on id', () => {
  let target: Target;
  let articles: string;
  let numbered: string;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'filter_id');
    numbered = uniqueName('numbered');
    const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name: numbered, fields: [{ name: 'label', type: 'string' }] } });
    if (created.status !== 201) throw new Error(created.text);
    const docs = [
      { id: '1', label: 'one' },
      { id: '10', label: 'ten' },
      { id: '2', label: 'two' },
      { id: 'with space', label: 'spaced' },
    ];
    await http(target.url, 'POST', `/collections/${numbered}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
  });
  afterAll(async () => {
    for (const name of [articles, numbered]) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const ids = async (collection: string, filterBy: string): Promise<string[]> => {
    const result = await search(target, collection, { q: '*', filter_by: filterBy });
    expect(result.error, filterBy).toBeUndefined();
    return hitIds(result).sort();
  };

  it('matches one id, a list of ids, and their negations', async () => {
    expect(await ids(articles, 'id: a1')).toEqual(['a1']);
    expect(await ids(articles, 'id:=a2')).toEqual(['a2']);
    expect(await ids(articles, 'id:[a1, a3]')).toEqual(['a1', 'a3']);
    expect(await ids(articles, 'id:= [a1,a3]')).toEqual(['a1', 'a3']);
    expect(await ids(articles, 'id:!=a1')).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(await ids(articles, 'id:!= [a1, a2]')).toEqual(['a3', 'a4', 'a5']);
    expect(await ids(articles, 'id:`a4`')).toEqual(['a4']);
  });

  it('compares ids exactly: case, numbers as strings, no word or prefix match', async () => {
    expect(await ids(articles, 'id:A1')).toEqual([]);
    expect(await ids(numbered, 'id: 1')).toEqual(['1']);
    expect(await ids(numbered, 'id:[1, 10]')).toEqual(['1', '10']);
    expect(await ids(numbered, 'id:!=1')).toEqual(['10', '2', 'with space']);
    expect(await ids(numbered, 'id:`with space`')).toEqual(['with space']);
    expect(await ids(numbered, 'id:with')).toEqual([]);
  });

  it('skips unknown ids; * is every document; an empty list is none', async () => {
    expect(await ids(articles, 'id:[a1, nope]')).toEqual(['a1']);
    expect(await ids(articles, 'id:nope')).toEqual([]);
    expect(await ids(articles, 'id:!=nope')).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(await ids(articles, 'id:*')).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect(await ids(articles, 'id:!=*')).toEqual([]);
    expect(await ids(articles, 'id:[]')).toEqual([]);
  });

  it('reads other operators as part of the id', async () => {
    expect(await ids(articles, 'id:>a1')).toEqual([]);
    expect(await ids(articles, 'id:<=a5')).toEqual([]);
  });

  it('combines with other clauses', async () => {
    expect(await ids(articles, 'id:[a1, a2, a3] && topic:=Leadership')).toEqual(['a1', 'a2']);
    expect(await ids(articles, 'id:a4 || readingTime:>6')).toEqual(['a4', 'a5']);
    expect(await ids(articles, '(id:a1 || id:a2) && readingTime:<5')).toEqual(['a2']);
    expect(await ids(articles, 'id:!=[a1, a2] && topic:=[`Remote Work`, Communication]')).toEqual(['a3', 'a5']);
    // With a text query the id clause narrows the matches like any filter.
    const unfiltered = await search(target, articles, { q: 'feedback', query_by: 'title,intro,content' });
    expect(hitIds(unfiltered).sort()).toEqual(['a1', 'a2']);
    const result = await search(target, articles, { q: 'feedback', query_by: 'title,intro,content', filter_by: 'id:!=a1' });
    expect(hitIds(result)).toEqual(['a2']);
    expect(result.found).toBe(1);
  });

  it('treats id as the document id even when a schema declares an `id` field (Typesense ignores that field)', async () => {
    // src/field.cpp `json_fields_to_fields`: "Collection schema cannot contain a field with name `id`. Ignoring field."
    const name = uniqueName('declared_id');
    const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields: [{ name: 'id', type: 'int32' }, { name: 'label', type: 'string' }] } });
    expect(created.status).toBe(201);
    expect(created.json.fields.map((f: { name: string }) => f.name)).toEqual(['label']);
    // src/collection.cpp: a non-string id is refused, whatever the schema says.
    const numeric = await http(target.url, 'POST', `/collections/${name}/documents`, { key: target.adminKey, body: { id: 7, label: 'seven' } });
    expect([numeric.status, numeric.json.message]).toEqual([400, "Document's `id` field should be a string."]);
    await http(target.url, 'POST', `/collections/${name}/documents`, { key: target.adminKey, body: { id: '7', label: 'seven' } });
    await http(target.url, 'POST', `/collections/${name}/documents`, { key: target.adminKey, body: { id: '8', label: 'eight' } });
    expect(await ids(name, 'id:7')).toEqual(['7']);
    expect(await ids(name, 'id:>7')).toEqual([]);
    await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
  });

  it('refuses an empty value with Typesense message', async () => {
    for (const filterBy of ['id:', 'id: ', 'id:=', 'id:!=', 'id: && readingTime:>1']) {
      expect(await search(target, articles, { q: '*', filter_by: filterBy }), filterBy).toEqual({ code: 400, error: 'Error with filter field `id`: Filter value cannot be empty.' });
    }
  });
});
