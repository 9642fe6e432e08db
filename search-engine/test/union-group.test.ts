import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * `group_by` inside a union (issue 28). Facts from Typesense's source at the v30 curation
 * refactor: commit 8c126018 "grouping support with union search" (`src/collection.cpp`
 * `Collection::do_union`, `src/collection_manager.cpp` `CollectionManager::do_union`) and its
 * test `test/union_test.cpp` `GroupingWithUnions`:
 * - every search groups on its own; each group takes part in the merge through its best hit
 *   (`raw_result_kvs` → `kvs[0]`) and the union answers `grouped_hits`, each group with
 *   `found` (the group's documents in that search), `group_key` (the best hit's values of the
 *   group fields, fields it lacks left out) and `hits` holding that one hit;
 * - `found` is the sum of the searches' group counts and `found_docs` the same sum (both add
 *   `found_count`); duplicates are never removed (`group_limit ? false : remove_duplicates`);
 * - either every search groups or none: "Invalid group_by searches count. All searches with
 *   union search should be uniform." (400, answered in the union's 200 body).
 */
describe('group_by inside a union', () => {
  let target: Target;
  const created: string[] = [];
  const create = async (fields: unknown[], docs: unknown[]): Promise<string> => {
    const name = uniqueName('ugroup');
    const response = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields } });
    if (response.status !== 201) throw new Error(response.text);
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    created.push(name);
    return name;
  };
  const union = async (searches: Record<string, unknown>[], queryString = '') => {
    const response = await http(target.url, 'POST', `/multi_search${queryString}`, { key: target.searchKey, body: { union: true, searches } });
    expect(response.status).toBe(200);
    return response.json;
  };
  const groupIds = (result: { grouped_hits: { hits: { document: { id: string } }[] }[] }) => result.grouped_hits.map((g) => g.hits.map((h) => h.document.id));

  let shop: string;
  let books: string;
  let films: string;
  beforeAll(async () => {
    target = await startTarget();
    shop = await create(
      [
        { name: 'name', type: 'string' },
        { name: 'category', type: 'string', facet: true },
        { name: 'fieldId', type: 'int32' },
      ],
      [
        { id: '0', name: 'Head & Shoulders', category: 'Shampoo', fieldId: 0 },
        { id: '1', name: 'Dove', category: 'Shampoo', fieldId: 1 },
        { id: '2', name: 'Heads Up', category: 'Shampoo', fieldId: 2 },
      ],
    );
    const fields = [
      { name: 'title', type: 'string' },
      { name: 'author', type: 'string', facet: true, optional: true },
      { name: 'year', type: 'int32' },
    ];
    books = await create(fields, [
      { id: 'b1', title: 'The Silent Sea', author: 'Ann', year: 2001 },
      { id: 'b2', title: 'Sea of Stars', author: 'Ann', year: 2010 },
      { id: 'b3', title: 'Deep Sea Diving', author: 'Bob', year: 2005 },
      { id: 'b4', title: 'Stars Above', author: 'Cid', year: 2015 },
      { id: 'b5', title: 'Quiet Sea', year: 2003 },
      { id: 'b6', title: 'Sea Songs', year: 2008 },
    ]);
    films = await create(fields, [
      { id: 'f1', title: 'Sea Wolves', author: 'Dee', year: 2012 },
      { id: 'f2', title: 'Silent Stars', author: 'Eve', year: 1999 },
    ]);
  });
  afterAll(async () => {
    for (const name of created) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  it("answers Typesense's GroupingWithUnions example", async () => {
    const result = await union([
      { collection: shop, q: 'head', query_by: 'name', group_by: 'category' },
      { collection: shop, q: 'do', query_by: 'name', group_by: 'category' },
    ]);
    expect(result).not.toHaveProperty('hits');
    expect(result.found).toBe(2);
    expect(result.grouped_hits).toHaveLength(2);
    expect(result.grouped_hits[0]).toMatchObject({ found: 2, group_key: ['Shampoo'] });
    expect(result.grouped_hits[1]).toMatchObject({ found: 1, group_key: ['Shampoo'] });
    expect(groupIds(result)).toEqual([['0'], ['1']]);
  });

  it('merges the groups of several collections by their best hits', async () => {
    const sea = (collection: string) => ({ collection, q: 'sea', query_by: 'title', sort_by: 'year:desc', group_by: 'author', group_limit: 3 });
    const result = await union([sea(books), sea(films)]);
    expect(result.found).toBe(4);
    expect(result.found_docs).toBe(4);
    expect(result.grouped_hits.map((g: { found: number; group_key: string[] }) => [g.group_key, g.found])).toEqual([
      [['Dee'], 1],
      [['Ann'], 2],
      [[], 2],
      [['Bob'], 1],
    ]);
    expect(groupIds(result)).toEqual([['f1'], ['b2'], ['b6'], ['b3']]);
    expect(result.grouped_hits[0].hits[0]).toMatchObject({ collection: films, search_index: 1 });
    expect(result.grouped_hits[1].hits[0]).toMatchObject({ collection: books, search_index: 0 });
    expect(result.union_request_params.map((p: { found: number }) => p.found)).toEqual([3, 1]);

    const second = await union([sea(books), sea(films)], '?page=2&per_page=2');
    expect(second.page).toBe(2);
    expect(groupIds(second)).toEqual([['b6'], ['b3']]);
  });

  it('keeps groups of two searches of one collection apart (no duplicate removal)', async () => {
    const grouped = (q: string) => ({ collection: books, q, query_by: 'title', sort_by: 'year:desc', group_by: 'author' });
    const result = await union([grouped('sea'), grouped('stars')]);
    // sea: Ann, no author, Bob (3 groups); stars: Cid, Ann (2 groups); Ann appears twice.
    expect(result.found).toBe(5);
    expect(groupIds(result)).toEqual([['b4'], ['b2'], ['b2'], ['b6'], ['b3']]);
  });

  it('refuses a union where only some searches group', async () => {
    const result = await union([
      { collection: shop, q: 'heads', query_by: 'name' },
      { collection: shop, q: 'dov', query_by: 'name', group_by: 'category' },
    ]);
    expect(result).toEqual({ code: 400, error: 'Invalid group_by searches count. All searches with union search should be uniform.' });
  });
});
