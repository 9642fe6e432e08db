import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, http, search, type Target, startTarget } from './support/target.js';

describe('robustness: hostile input never crashes the server or corrupts the index', () => {
  let target: Target;
  let articles: string;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'robust');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${articles}`, { key: target.adminKey });
    await target.close();
  });

  it('answers odd search parameters with 4xx or results, and stays healthy', async () => {
    const odd: Record<string, unknown>[] = [
      { q: '!!! ??? ###', query_by: 'title' },
      { q: 'x'.repeat(20_000), query_by: 'title,content' },
      { q: Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '), query_by: 'title' },
      { q: '*', page: 99_999_999, per_page: 250 },
      { q: '*', max_facet_values: 4_000_000_000, facet_by: 'topic' },
      { q: '*', filter_by: '('.repeat(5000) + 'topic:=x' + ')'.repeat(5000) },
      { q: '*', filter_by: 'topic:=[`unterminated' },
      { q: '*', filter_by: '&&||()' },
      { q: '*', sort_by: ':,:,:' },
      { q: '*', sort_by: 'date' },
      { q: '*', facet_by: 'topic', facet_query: 'topic:' },
      { q: '*', facet_by: 'topic', facet_query: `topic:${'z'.repeat(10_000)}` },
      { q: 'leadership', query_by: 'title', num_typos: 'many' },
      { q: 'leadership', query_by: 'title', prefix: 'true,false,true' },
      { q: 'leadership', query_by: ',,,' },
      { q: 'caf\u0301e \u{1F600} \u0000', query_by: 'title' },
    ];
    for (const params of odd) {
      const result = await search(target, articles, params);
      if (result.code !== undefined) {
        expect(result.code, JSON.stringify(params).slice(0, 80)).toBeGreaterThanOrEqual(400);
        expect(result.code).toBeLessThan(500);
      } else {
        expect(Array.isArray(result.hits)).toBe(true);
      }
    }
    expect((await http(target.url, 'GET', '/health')).json).toEqual({ ok: true });
    expect((await search(target, articles, { q: '*' })).found).toBe(5);
  });

  it('survives malformed imports and keeps every good line and the old documents', async () => {
    const lines = [
      '[1,2,3]',
      'null',
      '"just a string"',
      '{"id":"a1","title":null,"headline":1}',
      JSON.stringify({ id: 'bad-topic', headline: 'h', title: 't', intro: 'i', content: 'c', image: 'x', topic: 'not-an-array', date: 1, url: '/u', readingTime: 1, cta: 'c' }),
      JSON.stringify({ id: 'good', headline: 'Fresh', title: 'Brand new article', intro: 'i', content: 'c', image: 'x', topic: ['Career'], date: 1, url: '/u', readingTime: 1, cta: 'c' }),
      '{"id": "\uD800"}',
    ];
    const res = await http(target.url, 'POST', `/collections/${articles}/documents/import?action=upsert`, { key: target.adminKey, rawBody: lines.join('\n') });
    expect(res.status).toBe(200);
    const results = res.text.split('\n').map((l) => JSON.parse(l));
    expect(results).toHaveLength(lines.length);
    expect(results.map((r: { success: boolean }) => r.success)).toEqual([false, false, false, false, false, true, false]);
    const a1 = await http(target.url, 'GET', `/collections/${articles}/documents/a1`, { key: target.adminKey });
    expect(a1.json.title).toBe('Leadership in remote teams');
    expect((await search(target, articles, { q: 'leadership', query_by: 'title' })).found).toBe(1);
    expect((await search(target, articles, { q: 'brand', query_by: 'title' })).found).toBe(1);
    await http(target.url, 'DELETE', `/collections/${articles}/documents/good`, { key: target.adminKey });
    expect((await search(target, articles, { q: '*' })).found).toBe(5);
  });

  it('rejects non-JSON and wrongly shaped bodies on every JSON endpoint with 4xx', async () => {
    for (const [method, path] of [
      ['POST', '/collections'],
      ['POST', '/multi_search'],
      ['POST', `/collections/${articles}/documents`],
    ] as const) {
      for (const rawBody of ['', 'nul', '[]', '"x"', '{"searches": {}}']) {
        const res = await http(target.url, method, path, { key: target.adminKey, rawBody, headers: { 'content-type': 'application/json' } });
        expect(res.status, `${path} ${rawBody}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(typeof res.json?.message).toBe('string');
      }
    }
    expect((await http(target.url, 'GET', '/health')).status).toBe(200);
  });
});

describe('robustness: deeply nested JSON bodies', () => {
  let target: Target;
  let articles: string;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'nested');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${articles}`, { key: target.adminKey });
    await target.close();
  });

  // Found by the e2e fuzz corpus: 20,000 nested arrays or 5,000 nested objects overflowed the
  // stack of the code that walks a body (schema, document, set validation) and answered 500.
  const arrays = '['.repeat(20_000) + ']'.repeat(20_000);
  const objects = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
  it.each([
    ['POST', '/collections'],
    ['POST', '/collections/:articles/documents'],
    ['PATCH', '/collections/:articles'],
    ['PUT', '/synonym_sets/deep'],
    ['PUT', '/curation_sets/deep'],
  ] as const)('%s %s answers 400, not 500, and the index is unchanged', async (method, path) => {
    for (const rawBody of [arrays, objects]) {
      const res = await http(target.url, method, path.replace(':articles', articles), { key: target.adminKey, rawBody });
      expect(res.status, `${method} ${rawBody.slice(0, 8)}`).toBe(400);
      expect(res.json?.message).toMatch(/nested/i);
    }
    const lines = [arrays, objects, JSON.stringify({ id: 'fine', headline: 'h', title: 'Fine', intro: 'i', content: 'c', image: 'x', topic: ['Career'], date: 1, url: '/u', readingTime: 1, cta: 'c' })];
    const imported = await http(target.url, 'POST', `/collections/${articles}/documents/import?action=upsert`, { key: target.adminKey, rawBody: lines.join('\n') });
    expect(imported.status).toBe(200);
    expect(imported.text.split('\n').map((line) => JSON.parse(line).success)).toEqual([false, false, true]);
    expect((await search(target, articles, { q: '*' })).found).toBe(6);
    await http(target.url, 'DELETE', `/collections/${articles}/documents/fine`, { key: target.adminKey });
  });
});
