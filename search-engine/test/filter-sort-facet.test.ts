import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

const sorted = (ids: string[]): string[] => [...ids].sort();

describe('filter_by, sort_by, facet_by and facet_query', () => {
  let target: Target;
  let articles: string;
  let products: string;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'filters');
    products = uniqueName('products');
    await http(target.url, 'POST', '/collections', {
      key: target.adminKey,
      body: {
        name: products,
        fields: [
          { name: 'name', type: 'string' },
          { name: 'brand', type: 'string', facet: true },
          { name: 'price', type: 'float', facet: true },
          { name: 'in_stock', type: 'bool', facet: true },
          { name: 'sizes', type: 'int32[]', facet: true, optional: true },
        ],
      },
    });
    const docs = [
      { id: 'p1', name: 'Unlocked Cell Phones', brand: 'A, Inc', price: 799, in_stock: true, sizes: [1, 2] },
      { id: 'p2', name: 'Cell phone case', brand: 'B (Beta)', price: 19.5, in_stock: false, sizes: [2] },
      { id: 'p3', name: 'Samsung tablet', brand: 'Samsung', price: 999, in_stock: true },
      { id: 'p4', name: 'Samsung phone', brand: 'Samsung', price: 999, in_stock: true, sizes: [3] },
    ];
    await http(target.url, 'POST', `/collections/${products}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
  });
  afterAll(async () => {
    for (const name of [articles, products]) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const ids = async (collection: string, params: Record<string, unknown>) => sorted(hitIds(await search(target, collection, { q: '*', ...params })));

  it('filters strings by exact value, lists, negation and word match', async () => {
    expect(await ids(articles, { filter_by: 'topic:=Leadership' })).toEqual(['a1', 'a2']);
    expect(await ids(articles, { filter_by: 'topic:=[`Remote Work`,Career]' })).toEqual(['a1', 'a4', 'a5']);
    expect(await ids(articles, { filter_by: 'topic:!=Communication' })).toEqual(['a1', 'a4', 'a5']);
    expect(await ids(articles, { filter_by: 'topic:!=[Communication,Wellbeing]' })).toEqual(['a1', 'a5']);
    expect(await ids(articles, { filter_by: 'topic:Remote' })).toEqual(['a1', 'a5']);
    expect(await ids(articles, { filter_by: 'topic:=Remote' })).toEqual([]);
    expect(await ids(articles, { filter_by: 'topic:!Remote' })).toEqual(['a2', 'a3', 'a4']);
    expect(await ids(articles, { filter_by: 'topic:=leadership' })).toEqual(['a1', 'a2']);
  });

  it('filters with backtick literals containing commas and parentheses', async () => {
    expect(await ids(products, { filter_by: 'brand:=[`A, Inc`]' })).toEqual(['p1']);
    expect(await ids(products, { filter_by: 'brand:=`B (Beta)`' })).toEqual(['p2']);
    expect(await ids(products, { filter_by: 'brand:=[`A, Inc`,`B (Beta)`]' })).toEqual(['p1', 'p2']);
  });

  it('filters numbers with comparators, ranges and lists; booleans; arrays match any element', async () => {
    expect(await ids(articles, { filter_by: 'readingTime:>5' })).toEqual(['a1', 'a5']);
    expect(await ids(articles, { filter_by: 'readingTime:>=5' })).toEqual(['a1', 'a3', 'a5']);
    expect(await ids(articles, { filter_by: 'readingTime:<4' })).toEqual(['a4']);
    expect(await ids(articles, { filter_by: 'readingTime:<=4' })).toEqual(['a2', 'a4']);
    expect(await ids(articles, { filter_by: 'readingTime:=6' })).toEqual(['a1']);
    expect(await ids(articles, { filter_by: 'readingTime:[4..6]' })).toEqual(['a1', 'a2', 'a3']);
    expect(await ids(articles, { filter_by: 'readingTime:[<4,>6]' })).toEqual(['a4', 'a5']);
    expect(await ids(articles, { filter_by: 'readingTime:[3..4,7]' })).toEqual(['a2', 'a4', 'a5']);
    expect(await ids(articles, { filter_by: 'readingTime:!=6' })).toEqual(['a2', 'a3', 'a4', 'a5']);
    expect(await ids(products, { filter_by: 'price:<100' })).toEqual(['p2']);
    expect(await ids(products, { filter_by: 'in_stock:false' })).toEqual(['p2']);
    expect(await ids(products, { filter_by: 'in_stock:=true' })).toEqual(['p1', 'p3', 'p4']);
    expect(await ids(products, { filter_by: 'sizes:=2' })).toEqual(['p1', 'p2']);
    expect(await ids(products, { filter_by: 'sizes:=2 && sizes:=1' })).toEqual(['p1']);
  });

  it('combines clauses with &&, || and parentheses', async () => {
    expect(await ids(articles, { filter_by: '(topic:=Leadership || topic:=Wellbeing) && readingTime:<5' })).toEqual(['a2', 'a4']);
    expect(await ids(articles, { filter_by: 'topic:=Leadership || readingTime:>6' })).toEqual(['a1', 'a2', 'a5']);
    expect(await ids(articles, { filter_by: 'date:>=1700000000 && topic:=[`Remote Work`]' })).toEqual(['a1']);
    expect(await ids(articles, { filter_by: 'topic:=Communication && (readingTime:4 || readingTime:5)' })).toEqual(['a2', 'a3']);
  });

  it('applies filters to text queries too', async () => {
    const result = await search(target, articles, { q: 'communication', query_by: 'content', filter_by: 'readingTime:>=5' });
    expect(sorted(hitIds(result))).toEqual(['a1', 'a3']);
  });

  it('rejects unknown filter fields (404) and malformed filters (400)', async () => {
    expect(await search(target, articles, { q: '*', filter_by: 'nope:=1' })).toEqual({ code: 404, error: 'Could not find a filter field named `nope` in the schema.' });
    for (const filter of ['topic:=[Leadership', 'readingTime:>abc', '(topic:=Leadership', 'topic', 'readingTime:!5', 'topic:=Leadership &&']) {
      const result = await search(target, articles, { q: '*', filter_by: filter });
      expect(result, filter).toEqual({ code: 400, error: 'Could not parse the filter query.' });
    }
  });

  it('sorts by up to 3 keys with _text_match; q=* hits carry no text_match', async () => {
    expect(hitIds(await search(target, articles, { q: '*', sort_by: 'date:asc' }))).toEqual(['a5', 'a3', 'a1', 'a2', 'a4']);
    expect(hitIds(await search(target, articles, { q: '*', sort_by: 'readingTime:desc' }))).toEqual(['a5', 'a1', 'a3', 'a2', 'a4']);
    expect(hitIds(await search(target, products, { q: '*', sort_by: 'price:desc,in_stock:desc' }))).toEqual(['p4', 'p3', 'p1', 'p2']);
    const text = await search(target, articles, { q: 'communication', query_by: 'content,headline', sort_by: 'date:asc' });
    expect(hitIds(text)).toEqual(['a3', 'a1', 'a2']);
    expect(typeof text.hits[0].text_match).toBe('number');
    const textFirst = await search(target, articles, { q: 'feedback', query_by: 'title,intro', sort_by: '_text_match:desc,date:asc' });
    expect(hitIds(textFirst)).toEqual(['a2', 'a1']);
  });

  it('rejects more than 3 sort keys and unknown or unsortable sort fields', async () => {
    expect(await search(target, articles, { q: '*', sort_by: 'date:asc,readingTime:asc,date:desc,readingTime:desc' })).toEqual({ code: 400, error: 'Only upto 3 sort fields are allowed.' });
    expect(await search(target, articles, { q: '*', sort_by: 'nope:asc' })).toEqual({ code: 404, error: 'Could not find a field named `nope` in the schema for sorting.' });
    expect(await search(target, articles, { q: '*', sort_by: 'title:asc' })).toEqual({ code: 404, error: 'Could not find a field named `title` in the schema for sorting.' });
  });

  it('counts facet values over all matches, in Typesense order, with stats', async () => {
    const result = await search(target, articles, { q: '*', facet_by: 'topic', per_page: 1 });
    expect(result.facet_counts).toEqual([
      {
        field_name: 'topic',
        sampled: false,
        counts: [
          { value: 'Leadership', highlighted: 'Leadership', count: 2 },
          { value: 'Remote Work', highlighted: 'Remote Work', count: 2 },
          { value: 'Communication', highlighted: 'Communication', count: 2 },
          { value: 'Career', highlighted: 'Career', count: 1 },
          { value: 'Wellbeing', highlighted: 'Wellbeing', count: 1 },
          { value: 'Project Management', highlighted: 'Project Management', count: 1 },
        ],
        stats: { total_values: 6 },
      },
    ]);
    const limited = await search(target, articles, { q: '*', facet_by: 'topic', max_facet_values: 2 });
    expect(limited.facet_counts[0].counts.map((c: { value: string }) => c.value)).toEqual(['Leadership', 'Remote Work']);
    const filtered = await search(target, articles, { q: '*', facet_by: 'topic', filter_by: 'readingTime:>5' });
    expect(filtered.facet_counts[0].counts).toEqual([
      { value: 'Remote Work', highlighted: 'Remote Work', count: 2 },
      { value: 'Leadership', highlighted: 'Leadership', count: 1 },
      { value: 'Project Management', highlighted: 'Project Management', count: 1 },
    ]);
  });

  it('reports numeric facet stats and string values for numbers and booleans, in facet_by order', async () => {
    const result = await search(target, products, { q: '*', facet_by: 'price,brand,in_stock' });
    expect(result.facet_counts.map((f: { field_name: string }) => f.field_name)).toEqual(['price', 'brand', 'in_stock']);
    const [price, , stock] = result.facet_counts;
    expect(price.counts[0]).toEqual({ value: '999', highlighted: '999', count: 2 });
    expect(price.stats).toMatchObject({ min: 19.5, max: 999, sum: 2816.5, total_values: 3 });
    expect(price.stats.avg).toBeCloseTo(704.125, 3);
    expect(stock.counts).toEqual([
      { value: 'true', highlighted: 'true', count: 3 },
      { value: 'false', highlighted: 'false', count: 1 },
    ]);
  });

  it('facet_query keeps matching values, highlighted, and defaults per_page to 0', async () => {
    const result = await search(target, articles, { q: '*', facet_by: 'topic', facet_query: 'topic:rem' });
    expect(result.hits).toEqual([]);
    expect(result.request_params.per_page).toBe(0);
    expect(result.facet_counts[0].counts).toEqual([{ value: 'Remote Work', highlighted: '<mark>Rem</mark>ote Work', count: 2 }]);
    const phones = await search(target, products, { q: '*', facet_by: 'brand', facet_query: 'brand:sams' });
    expect(phones.facet_counts[0].counts).toEqual([{ value: 'Samsung', highlighted: '<mark>Sams</mark>ung', count: 2 }]);
    const typo = await search(target, articles, { q: '*', facet_by: 'topic', facet_query: 'topic:comunication' });
    expect(typo.facet_counts[0].counts).toEqual([{ value: 'Communication', highlighted: '<mark>Communication</mark>', count: 2 }]);
    const words = await search(target, articles, { q: '*', facet_by: 'topic', facet_query: 'topic:project man' });
    expect(words.facet_counts[0].counts).toEqual([{ value: 'Project Management', highlighted: '<mark>Project</mark> <mark>Man</mark>agement', count: 1 }]);
    const withHits = await search(target, articles, { q: '*', facet_by: 'topic', facet_query: 'topic:rem', per_page: 3 });
    expect(withHits.hits).toHaveLength(3);
  });

  it('rejects unknown facet fields, facet queries without a colon or outside facet_by', async () => {
    expect(await search(target, articles, { q: '*', facet_by: 'title' })).toEqual({ code: 404, error: 'Could not find a facet field named `title` in the schema.' });
    expect(await search(target, articles, { q: '*', facet_by: 'topic', facet_query: 'remote' })).toEqual({ code: 400, error: 'Facet query must be in the `facet_field: value` format.' });
    const outside = await search(target, products, { q: '*', facet_by: 'brand', facet_query: 'price:9' });
    expect(outside.code).toBe(400);
  });
});
