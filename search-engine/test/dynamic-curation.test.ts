import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * Dynamic curation: `{field}` placeholders in a curation rule (issue 28). Facts from Typesense's
 * source at the v30 curation refactor (`src/curation.cpp` `curation_t::parse`, `src/index.cpp`
 * `process_filter_sort_curations` / `resolve_curation` / `check_for_curations`) and the tests
 * ported here from `test/collection_curation_test.cpp`: `DynamicFilteringExactMatchBasics`,
 * `DynamicFilteringPrefixMatchShouldNotWork`, `DynamicFilteringMultiplePlaceholders`,
 * `DynamicFilteringMissingField`, `DynamicFilteringBadFilterBy`,
 * `DynamicFilteringWithNumericalFilter`, `DynamicOverridePlaceHolderFieldNameTypo`,
 * `DynamicFilterMatchingMultipleRules`:
 * - a rule `query` with `{field}` placeholders matches when the query words a placeholder takes
 *   are a whole value of that field in some document (no prefix, no typo); the item's
 *   `filter_by` / `sort_by` get those words in the placeholder's place;
 * - `match: exact` needs every query word absorbed by a placeholder; `contains` allows other
 *   words around the rule's literal words;
 * - `remove_matched_tokens` (default true with a `filter_by`) drops the absorbed words from the
 *   query (nothing left → `*`); includes and `metadata` of a resolved item apply;
 * - a placeholder in `rule.filter_by` matches a request `filter_by` with the same values apart
 *   from the placeholder's (counted after splitting at `:`, `&&`, `||` and parentheses).
 */
describe('dynamic curation ({field} placeholders)', () => {
  let target: Target;
  const collections: string[] = [];
  const sets: string[] = [];
  const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });
  const setup = async (fields: unknown[], docs: unknown[], items: unknown[], extra: Record<string, unknown> = {}): Promise<string> => {
    const setName = uniqueName('dyn');
    const put = await admin('PUT', `/curation_sets/${setName}`, { items });
    if (put.status !== 200) throw new Error(put.text);
    sets.push(setName);
    const name = uniqueName('dyncoll');
    const created = await admin('POST', '/collections', { name, fields, curation_sets: [setName], ...extra });
    if (created.status !== 201) throw new Error(created.text);
    collections.push(name);
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    return name;
  };

  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    for (const name of collections) await admin('DELETE', `/collections/${name}`);
    for (const name of sets) await admin('DELETE', `/curation_sets/${name}`);
    await target.close();
  });

  const PRODUCT_FIELDS = [
    { name: 'name', type: 'string' },
    { name: 'category', type: 'string', facet: true },
    { name: 'brand', type: 'string', facet: true },
    { name: 'points', type: 'int32' },
  ];
  // As the ported tests search: typos 2, no prefix, drop_tokens_threshold 10.
  const searchProducts = (collection: string, q: string) =>
    search(target, collection, { q, query_by: 'name,category,brand', sort_by: '_text_match:desc,points:desc', prefix: false, drop_tokens_threshold: 10 });

  it('exact rules: placeholders absorb whole field values and fill the filter (DynamicFilteringExactMatchBasics)', async () => {
    const shop = await setup(
      PRODUCT_FIELDS,
      [
        { id: '0', name: 'Amazing Shoes', category: 'shoes', brand: 'Nike', points: 3 },
        { id: '1', name: 'Track Gym', category: 'shoes', brand: 'Adidas', points: 5 },
        { id: '2', name: 'Running Shoes', category: 'sports', brand: 'Nike', points: 5 },
      ],
      [
        { id: 'dynamic-cat-filter', rule: { query: '{category}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'category: {category}' },
        { id: 'dynamic-brand-cat-filter', rule: { query: '{brand} {category}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'category: {category} && brand: {brand}' },
        { id: 'dynamic-brand-filter', rule: { query: '{brand}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'brand: {brand}', includes: [{ id: '0', position: 1 }] },
      ],
      { default_sorting_field: 'points' },
    );
    // "shoes" is a whole category value: filtered to that category, the word removed (q becomes *).
    const shoes = await searchProducts(shop, 'shoes');
    expect(hitIds(shoes)).toEqual(['1', '0']);
    expect(shoes.hits[0].highlights).toEqual([]);
    // Not every word absorbed: no exact rule applies.
    expect((await searchProducts(shop, 'running shoes')).found).toBe(3);
    // Two placeholders, each absorbing one value.
    expect(hitIds(await searchProducts(shop, 'adidas shoes'))).toEqual(['1']);
    // Brand rule with its include pinned first.
    const adidas = await searchProducts(shop, 'adidas');
    expect(hitIds(adidas)).toEqual(['0', '1']);
    expect(adidas.hits[0].curated).toBe(true);
  });

  it('a placeholder never takes a prefix of a value (DynamicFilteringPrefixMatchShouldNotWork)', async () => {
    const shop = await setup(
      PRODUCT_FIELDS,
      [
        { id: '0', name: 'Amazing Shoes', category: 'shoe', brand: 'Nike', points: 3 },
        { id: '1', name: 'Track Gym', category: 'shoes', brand: 'Adidas', points: 5 },
        { id: '2', name: 'Running Shoe', category: 'shoes', brand: 'Nike', points: 5 },
      ],
      [{ id: 'dynamic-cat-filter', rule: { query: '{category}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'category: {category}' }],
      { default_sorting_field: 'points' },
    );
    expect(hitIds(await searchProducts(shop, 'shoe'))).toEqual(['0']);
  });

  it('contains rules: placeholders between literal words, multi-word values, words before the rule', async () => {
    const shop = await setup(
      [
        { name: 'name', type: 'string' },
        { name: 'category', type: 'string', facet: true },
        { name: 'brand', type: 'string', facet: true },
        { name: 'color', type: 'string', facet: true },
        { name: 'points', type: 'int32' },
      ],
      [
        { id: '0', name: 'Retro Shoes', category: 'shoes', color: 'yellow', brand: 'Nike Air Jordan', points: 3 },
        { id: '1', name: 'Baseball', category: 'shoes', color: 'white', brand: 'Adidas', points: 5 },
        { id: '2', name: 'Running Shoes', category: 'sports', color: 'grey', brand: 'Nike', points: 5 },
      ],
      [{ id: 'dynamic-cat-filter', rule: { query: '{brand} {color} shoes', match: 'contains' }, remove_matched_tokens: true, filter_by: 'brand: {brand} && color: {color}' }],
      { default_sorting_field: 'points' },
    );
    // "light" sits between the brand and the colour: {color} cannot absorb "light yellow".
    expect((await searchProducts(shop, 'Nike Air Jordan light yellow shoes')).found).toBe(3);
    // "New" before the rule is skipped by the first placeholder's sliding window.
    expect(hitIds(await searchProducts(shop, 'New Nike Air Jordan yellow shoes'))).toEqual(['0']);
  });

  it('keeps the case of a placeholder field name; metadata of the resolved item is answered (DynamicOverridePlaceHolderFieldNameTypo)', async () => {
    const products = await setup(
      [
        { name: 'title', type: 'string' },
        { name: 'categoryType', type: 'string' },
        { name: 'region', type: 'string' },
        { name: 'popularity', type: 'int32', sort: true },
      ],
      [
        { id: '1', title: 'Office Charger', categoryType: 'Electronics', region: 'act', popularity: 50 },
        { id: '2', title: 'Office Stapler', categoryType: 'Office', region: 'act', popularity: 30 },
        { id: '3', title: 'Notebook', categoryType: 'Office', region: 'nsw', popularity: 70 },
        { id: '4', title: 'Bluetooth Speaker', categoryType: 'Electronics', region: 'act', popularity: 90 },
      ],
      [
        {
          id: 'placeholder_field',
          rule: { query: '{categoryType}', match: 'contains' },
          filter_by: 'categoryType:={categoryType}',
          filter_curated_hits: false,
          stop_processing: false,
          metadata: { text: 'placeholder_field filter triggered' },
        },
      ],
    );
    const result = await search(target, products, { q: 'Office', query_by: 'title' });
    expect(result.found).toBe(2);
    expect(hitIds(result)).toEqual(['3', '2']);
    expect(result.metadata).toEqual({ text: 'placeholder_field filter triggered' });
  });

  it('placeholders in rule.filter_by match a request filter with the same values (DynamicFilterMatchingMultipleRules)', async () => {
    const products = await setup(
      [
        { name: 'title', type: 'string' },
        { name: 'category', type: 'string' },
        { name: 'region', type: 'string' },
        { name: 'popularity', type: 'int32', sort: true },
      ],
      [
        { id: '1', title: 'USB-C Charger', category: 'Electronics', region: 'act', popularity: 50 },
        { id: '2', title: 'Office Stapler', category: 'Office', region: 'act', popularity: 30 },
        { id: '3', title: 'Notebook', category: 'Office', region: 'nsw', popularity: 70 },
        { id: '4', title: 'Bluetooth Speaker', category: 'Electronics', region: 'act', popularity: 90 },
      ],
      [
        { id: '001-electronics', rule: { filter_by: 'region:={region} && category:=`Electronics`' }, includes: [{ id: '1', position: 1 }], sort_by: 'popularity:desc', stop_processing: true },
        {
          id: '002-electronics-or-office',
          rule: { filter_by: 'region:={region} && (category:=`Electronics` || category:= `Office`) ' },
          includes: [{ id: '2', position: 1 }],
          sort_by: 'popularity:desc',
          stop_processing: true,
        },
      ],
    );
    const both = await search(target, products, { q: '*', filter_by: 'region:=act && (category:=`Electronics` || category:=`Office`) ' });
    expect(both.found).toBe(3);
    expect(hitIds(both)).toEqual(['2', '4', '1']);
    expect(both.hits[0].curated).toBe(true);
    const electronics = await search(target, products, { q: '*', filter_by: 'region:=act && category:=`Electronics`' });
    expect(electronics.found).toBe(2);
    expect(hitIds(electronics)).toEqual(['1', '4']);
    expect(electronics.hits[0].curated).toBe(true);
    // A filter with fewer values matches neither rule: plain results, newest first.
    expect(hitIds(await search(target, products, { q: '*', filter_by: 'region:=act' }))).toEqual(['4', '2', '1']);
  });

  it('an unknown placeholder field never resolves; a filled filter that does not parse is skipped (DynamicFilteringMissingField, DynamicFilteringBadFilterBy)', async () => {
    const shop = await setup(
      [
        { name: 'name', type: 'string' },
        { name: 'category', type: 'string', facet: true },
        { name: 'points', type: 'int32' },
      ],
      [{ id: '0', name: 'Amazing Shoes', category: 'shoes', points: 3 }],
      [
        { id: 'a-missing-field', rule: { query: '{categories}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'category: {categories}', stop_processing: false },
        { id: 'b-bad-filter', rule: { query: '{category}', match: 'exact' }, remove_matched_tokens: true, filter_by: 'category: {category} && foo' },
      ],
      { default_sorting_field: 'points' },
    );
    const result = await search(target, shop, { q: 'shoes', query_by: 'name,category', sort_by: '_text_match:desc,points:desc' });
    expect(hitIds(result)).toEqual(['0']);
    // The query was kept: the hit is highlighted.
    expect(result.hits[0].highlight.name.snippet).toBe('Amazing <mark>Shoes</mark>');
  });

  it('literal rule words around a placeholder, a numeric clause in the filter, enable_curations=false (DynamicFilteringWithNumericalFilter)', async () => {
    const shop = await setup(
      [
        { name: 'name', type: 'string' },
        { name: 'category', type: 'string', facet: true },
        { name: 'brand', type: 'string', facet: true },
        { name: 'color', type: 'string', facet: true },
        { name: 'points', type: 'int32' },
      ],
      [
        { id: '0', name: 'Retro Shoes', category: 'shoes', color: 'yellow', brand: 'Nike', points: 15 },
        { id: '1', name: 'Baseball Shoes', category: 'shoes', color: 'white', brand: 'Nike', points: 5 },
        { id: '2', name: 'Running Shoes', category: 'sports', color: 'grey', brand: 'Nike', points: 5 },
        { id: '3', name: 'Running Shoes', category: 'sports', color: 'grey', brand: 'Adidas', points: 5 },
      ],
      [{ id: 'dynamic-cat-filter', rule: { query: 'popular {brand} shoes', match: 'contains' }, remove_matched_tokens: false, filter_by: 'brand: {brand} && points:> 10' }],
      { default_sorting_field: 'points' },
    );
    expect(hitIds(await searchProducts(shop, 'popular nike shoes'))).toEqual(['0']);
    expect((await search(target, shop, { q: 'popular nike shoes', query_by: 'name,category,brand', prefix: false, drop_tokens_threshold: 10, enable_curations: false })).found).toBe(4);
    expect((await searchProducts(shop, 'running adidas shoes')).found).toBe(4);
    expect(hitIds(await searchProducts(shop, 'adidas'))).toEqual(['3']);
  });

  it('a rule query with a placeholder is not matched as literal words', async () => {
    const shop = await setup(
      PRODUCT_FIELDS,
      [
        { id: '0', name: 'brand new shoes', category: 'shoes', brand: 'Nike', points: 3 },
        { id: '1', name: 'Track Gym', category: 'gym', brand: 'Adidas', points: 5 },
      ],
      [{ id: 'brand-rule', rule: { query: '{brand} shoes', match: 'contains' }, filter_by: 'brand: {brand}', includes: [{ id: '1', position: 1 }] }],
      { default_sorting_field: 'points' },
    );
    // "brand" is no brand value: the rule does not resolve and pins nothing.
    const result = await searchProducts(shop, 'brand shoes');
    expect(hitIds(result)).toEqual(['0']);
    expect(result.hits[0].curated).toBeUndefined();
  });
});
