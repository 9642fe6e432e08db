import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

const PRODUCTS = [
  {
    id: 'p1',
    name: 'Dune',
    hierarchicalCategories: { lvl0: 'Books', lvl1: 'Books > Fiction' },
    publisher: { name: 'Chilton', country: 'US' },
    stats: { rating: 4.8 },
    variants: [{ color: 'red paperback', price: 10 }, { color: 'blue hardcover', price: 25 }],
  },
  {
    id: 'p2',
    name: 'Cosmos',
    hierarchicalCategories: { lvl0: 'Books', lvl1: 'Books > Science' },
    publisher: { name: 'Random House', country: 'US' },
    stats: { rating: 4.6 },
    variants: [{ color: 'green paperback', price: 12 }],
  },
  {
    id: 'p3',
    name: 'Red Lamp',
    hierarchicalCategories: { lvl0: 'Home', lvl1: 'Home > Lighting' },
    publisher: { name: 'Lumen', country: 'DE' },
    stats: { rating: 3.9 },
    variants: [{ color: 'red', price: 40 }],
  },
];

describe('nested fields (enable_nested_fields): object and object[] as dotted fields', () => {
  let target: Target;
  let products: string;
  beforeAll(async () => {
    target = await startTarget();
    products = uniqueName('nested');
    const created = await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: {
        name: products,
        enable_nested_fields: true,
        fields: [
          { name: 'name', type: 'string' },
          { name: 'hierarchicalCategories', type: 'object', facet: true },
          { name: 'publisher.name', type: 'string', facet: true },
          { name: 'stats', type: 'object' },
          { name: 'variants', type: 'object[]', facet: true },
        ],
      },
    });
    if (created.status !== 201) throw new Error(created.text);
    const imported = await http(target.url, 'POST', `/collections/${products}/documents/import`, { key: target.adminKey, rawBody: PRODUCTS.map((p) => JSON.stringify(p)).join('\n') });
    if (imported.text.includes('"success":false')) throw new Error(imported.text);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${products}`, { key: target.adminKey });
    await target.close();
  });

  it('object fields need enable_nested_fields', async () => {
    const res = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name: uniqueName('flat'), fields: [{ name: 'o', type: 'object' }] } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'Type `object` or `object[]` can be used only when nested fields are enabled by setting` enable_nested_fields` to true.' });
  });

  it('adds the children it finds to the schema as optional dotted fields with the object field settings', async () => {
    const fields = (await http(target.url, 'GET', `/collections/${products}`, { key: target.adminKey })).json.fields as { name: string }[];
    expect(fields.find((f) => f.name === 'hierarchicalCategories.lvl0')).toMatchObject({ type: 'string', facet: true, optional: true });
    expect(fields.find((f) => f.name === 'variants.color')).toMatchObject({ type: 'string[]', facet: true, optional: true });
    expect(fields.find((f) => f.name === 'stats.rating')).toMatchObject({ type: 'float', optional: true, sort: true });
  });

  it('returns documents with their nesting, unchanged', async () => {
    const result = await search(target, products, { q: '*', filter_by: 'name:=Dune' });
    expect(result.hits[0].document).toEqual(PRODUCTS[0]);
  });

  it('facets, filters and sorts on dotted fields', async () => {
    const facets = await search(target, products, { q: '*', facet_by: 'hierarchicalCategories.lvl0,hierarchicalCategories.lvl1' });
    expect(facets.facet_counts[0].counts).toEqual([
      { count: 2, highlighted: 'Books', value: 'Books' },
      { count: 1, highlighted: 'Home', value: 'Home' },
    ]);
    expect(facets.facet_counts[1].field_name).toBe('hierarchicalCategories.lvl1');
    const filtered = await search(target, products, { q: '*', filter_by: 'hierarchicalCategories.lvl1:=[`Books > Fiction`,`Home > Lighting`]' });
    expect(hitIds(filtered).sort()).toEqual(['p1', 'p3']);
    expect(hitIds(await search(target, products, { q: '*', filter_by: 'publisher.name:=Lumen' }))).toEqual(['p3']);
    expect(hitIds(await search(target, products, { q: '*', sort_by: 'stats.rating:asc' }))).toEqual(['p3', 'p2', 'p1']);
    const colors = await search(target, products, { q: '*', facet_by: 'variants.color', filter_by: 'variants.price:<15' });
    expect(colors.facet_counts[0].counts.map((c: { value: string }) => c.value).sort()).toEqual(['blue hardcover', 'green paperback', 'red paperback']);
  });

  it('searches an object field through its string children; highlights mirror the nesting', async () => {
    const byObject = await search(target, products, { q: 'science', query_by: 'hierarchicalCategories' });
    expect(hitIds(byObject)).toEqual(['p2']);
    expect(byObject.hits[0].highlight).toEqual({
      hierarchicalCategories: { lvl1: { matched_tokens: ['Science'], snippet: 'Books > <mark>Science</mark>' } },
    });
    const inArray = await search(target, products, { q: 'paperback', query_by: 'variants.color' });
    expect(hitIds(inArray).sort()).toEqual(['p1', 'p2']);
    const dune = inArray.hits.find((h: { document: { id: string } }) => h.document.id === 'p1');
    expect(dune.highlight).toEqual({
      variants: [
        { color: { matched_tokens: ['paperback'], snippet: 'red <mark>paperback</mark>' } },
        { color: { matched_tokens: [], snippet: 'blue hardcover' } },
      ],
    });
  });

  it('rejects a document whose object field is not an object', async () => {
    const res = await http(target.url, 'POST', `/collections/${products}/documents/import`, { key: target.adminKey, rawBody: JSON.stringify({ id: 'bad', name: 'x', 'publisher': { name: 'P' }, hierarchicalCategories: 'Books' }) });
    expect(JSON.parse(res.text)).toMatchObject({ success: false, code: 400 });
  });
});
