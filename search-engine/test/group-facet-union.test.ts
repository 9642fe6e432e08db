import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, multiSearch, search, type Target, startTarget, uniqueName } from './support/target.js';

const FIELDS = [
  { name: 'title', type: 'string' },
  { name: 'author', type: 'string', facet: true, optional: true },
  { name: 'genre', type: 'string[]', facet: true },
  { name: 'series', type: 'string', facet: true, optional: true },
  { name: 'year', type: 'int32', facet: true },
];

const BOOKS = [
  { id: 'b1', title: 'The Silent Sea', author: 'Ann', genre: ['scifi'], year: 2001 },
  { id: 'b2', title: 'Sea of Stars', author: 'Ann', genre: ['scifi', 'space'], year: 2010 },
  { id: 'b3', title: 'Deep Sea Diving', author: 'Bob', genre: ['nonfiction'], year: 2005 },
  { id: 'b4', title: 'Stars Above', author: 'Cid', genre: ['space'], year: 2015 },
  { id: 'b5', title: 'Quiet Sea', genre: ['poetry'], year: 2003 },
  { id: 'b6', title: 'Sea Songs', genre: ['poetry'], year: 2008 },
];
const FILMS = [
  { id: 'f1', title: 'Sea Wolves', author: 'Dee', genre: ['action'], year: 2012 },
  { id: 'f2', title: 'Silent Stars', author: 'Eve', genre: ['drama'], year: 1999 },
];

describe('facet_by=*, group_by and union (Typesense 30)', () => {
  let target: Target;
  let books: string;
  let films: string;
  const create = async (prefix: string, docs: unknown[]) => {
    const name = uniqueName(prefix);
    const created = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields: FIELDS } });
    if (created.status !== 201) throw new Error(created.text);
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    return name;
  };
  const union = async (searches: Record<string, unknown>[], queryString = '', extra: Record<string, unknown> = {}) => {
    const res = await http(target.url, 'POST', `/multi_search${queryString}`, { key: target.searchKey, body: { union: true, searches, ...extra } });
    expect(res.status).toBe(200);
    return res.json;
  };

  beforeAll(async () => {
    target = await startTarget();
    books = await create('books', BOOKS);
    films = await create('films', FILMS);
  });
  afterAll(async () => {
    for (const name of [books, films]) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  describe('facet_by with wildcards', () => {
    it('facet_by=* counts every facet field and leaves out the ones without values', async () => {
      const result = await search(target, books, { q: '*', facet_by: '*' });
      const names = result.facet_counts.map((f: { field_name: string }) => f.field_name).sort();
      expect(names).toEqual(['author', 'genre', 'year']);
      const genre = result.facet_counts.find((f: { field_name: string }) => f.field_name === 'genre');
      expect(genre.counts.slice(0, 2)).toEqual([
        { count: 2, highlighted: 'space', value: 'space' },
        { count: 2, highlighted: 'scifi', value: 'scifi' },
      ]);
    });

    it('a prefix wildcard picks the facet fields with that prefix; an unknown prefix answers 404', async () => {
      const result = await search(target, books, { q: '*', facet_by: 'gen*' });
      expect(result.facet_counts.map((f: { field_name: string }) => f.field_name)).toEqual(['genre']);
      const unknown = await search(target, books, { q: '*', facet_by: 'zz*' });
      expect(unknown).toEqual({ code: 404, error: 'Could not find a facet field for `zz*` in the schema.' });
    });
  });

  describe('group_by', () => {
    it('groups by the field: grouped_hits ranked by their best hit, found = groups, found_docs = documents', async () => {
      const result = await search(target, books, { q: '*', group_by: 'author', group_limit: 2, sort_by: 'year:desc' });
      expect(result).not.toHaveProperty('hits');
      expect(result.found).toBe(4);
      expect(result.found_docs).toBe(6);
      const groups = result.grouped_hits.map((g: { group_key: unknown[]; found: number; hits: { document: { id: string } }[] }) => ({
        key: g.group_key,
        found: g.found,
        ids: g.hits.map((h) => h.document.id),
      }));
      expect(groups).toEqual([
        { key: ['Cid'], found: 1, ids: ['b4'] },
        { key: ['Ann'], found: 2, ids: ['b2', 'b1'] },
        { key: [], found: 2, ids: ['b6', 'b5'] },
        { key: ['Bob'], found: 1, ids: ['b3'] },
      ]);
    });

    it('group_missing_values=false gives each document without the field its own group; pages count groups', async () => {
      const result = await search(target, books, { q: '*', group_by: 'author', sort_by: 'year:desc', group_missing_values: false, per_page: 2, page: 2 });
      expect(result.found).toBe(5);
      expect(result.grouped_hits.map((g: { hits: { document: { id: string } }[] }) => g.hits.map((h) => h.document.id))).toEqual([['b6'], ['b3']]);
    });

    it('facet counts count groups, not documents', async () => {
      const result = await search(target, books, { q: '*', group_by: 'author', facet_by: 'genre' });
      const counts = Object.fromEntries(result.facet_counts[0].counts.map((c: { value: string; count: number }) => [c.value, c.count]));
      expect(counts).toEqual({ scifi: 1, space: 2, nonfiction: 1, poetry: 1 });
    });

    it('rejects non-facet fields and group_limit out of 1..99', async () => {
      expect(await search(target, books, { q: '*', group_by: 'title' })).toEqual({ code: 400, error: 'Group by field `title` should be a facet field.' });
      expect(await search(target, books, { q: '*', group_by: 'author', group_limit: 100 })).toEqual({ code: 400, error: 'Value of `group_limit` must be between 1 and 99.' });
    });
  });

  describe('multi_search with union: true', () => {
    const sea = (collection: string) => ({ collection, q: 'sea', query_by: 'title', sort_by: 'year:desc' });

    it('merges the searches into one ranked list; each hit names its collection and search_index', async () => {
      const result = await union([sea(books), sea(films)]);
      expect(result).not.toHaveProperty('results');
      expect(result.found).toBe(6);
      expect(hitIds(result)).toEqual(['f1', 'b2', 'b6', 'b3', 'b5', 'b1']);
      expect(result.hits[0]).toMatchObject({ collection: films, search_index: 1 });
      expect(result.hits[1]).toMatchObject({ collection: books, search_index: 0 });
      expect(result.hits[0].highlight.title.snippet).toBe('<mark>Sea</mark> Wolves');
      expect(result.union_request_params).toEqual([
        { collection_name: books, first_q: 'sea', found: 5, per_page: 10, q: 'sea' },
        { collection_name: films, first_q: 'sea', found: 1, per_page: 10, q: 'sea' },
      ]);
      expect(result.out_of).toBe(8);
    });

    it('pages with the top-level page / per_page', async () => {
      const result = await union([sea(books), sea(films)], '?page=2&per_page=2');
      expect(result.page).toBe(2);
      expect(hitIds(result)).toEqual(['b6', 'b3']);
    });

    it('counts a document found by two searches once unless remove_duplicates=false', async () => {
      const both = [sea(books), { ...sea(books), q: 'stars' }];
      const deduped = await union(both);
      expect(deduped.found).toBe(6);
      expect(hitIds(deduped)).toEqual(['b4', 'b2', 'b6', 'b3', 'b5', 'b1']);
      expect((await union(both, '', { remove_duplicates: false })).found).toBe(7);
    });

    it('answers an error for the whole union when a search fails; plain multi_search is unchanged', async () => {
      expect(await union([sea(books), sea('no_such_collection_15')])).toEqual({ code: 404, error: '`no_such_collection_15` collection not found.' });
      const results = await multiSearch(target, [sea(books), sea(films)]);
      expect(results).toHaveLength(2);
    });
  });
});
