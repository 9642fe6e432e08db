import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { runSearch } from '../src/search/multi-search.js';
import { fixtureArticles } from './support/fixtures.js';
import { createArticleCollection, http, type Target, startTarget } from './support/target.js';

/**
 * Search answers are encoded to UTF-8 by the worker and written by the HTTP thread as bytes. They
 * must be exactly what the former path wrote: `JSON.stringify` of the engine's result, joined into
 * `{"results":[…]}` (only `search_time_ms` differs between two runs of a search).
 */
const TIME = /"search_time_ms":\d+/g;
const sameBytesBut = (bytes: Buffer): string => bytes.toString('latin1').replace(TIME, '"search_time_ms":0');

const SAMPLE: Record<string, string>[] = [
  { q: '*' },
  { q: 'resume cafe', query_by: 'title,intro', highlight_full_fields: 'title,intro' },
  { q: 'leadrship', query_by: 'title,headline,intro,content', per_page: '2' },
  { q: 'lea', query_by: 'title', facet_by: 'topic', max_facet_values: '3' },
  { q: '*', filter_by: 'readingTime:>3', sort_by: 'readingTime:asc', include_fields: 'id,title' },
  { q: 'café', query_by: 'title', highlight_start_tag: '<b title=ü>', highlight_end_tag: '</b>' },
];

describe('search answers as bytes from the worker', () => {
  let target: Target;
  let name: string;
  let engine: SearchEngine;
  beforeAll(async () => {
    target = await startTarget();
    name = await createArticleCollection(target, 'bytes');
    // The same documents in the same order, searched in this process as the old path did.
    engine = new SearchEngine(undefined);
    engine.createCollection(fixtureCollectionSchema(name));
    engine.importDocuments(name, fixtureArticles.map((a) => JSON.stringify(a)).join('\n'), 'create', false, false);
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const post = async (body: unknown): Promise<{ status: number; length: string | null; bytes: Buffer }> => {
    const response = await fetch(`${target.url}/multi_search`, { method: 'POST', headers: { 'x-typesense-api-key': target.searchKey }, body: JSON.stringify(body) });
    return { status: response.status, length: response.headers.get('content-length'), bytes: Buffer.from(await response.arrayBuffer()) };
  };

  it('multi_search: byte for byte the JSON of the engine results, with a refused slot between them', async () => {
    if (!target.embedded) return;
    const searches = [...SAMPLE.map((params) => ({ collection: name, ...params })), { collection: name, q: 'x', highlight_start_tag: 'y'.repeat(500) }];
    const answer = await post({ searches });
    expect(answer.status).toBe(200);
    expect(Number(answer.length)).toBe(answer.bytes.byteLength);
    const expectedParts = SAMPLE.map((params) => JSON.stringify(runSearch(engine, name, { collection: name, ...params })));
    const refused = JSON.parse(answer.bytes.toString('utf8')).results.at(-1);
    expect(refused.code).toBe(400);
    const expected = Buffer.from(`{"results":[${[...expectedParts, JSON.stringify(refused)].join(',')}]}`, 'utf8');
    expect(sameBytesBut(answer.bytes)).toBe(sameBytesBut(expected));
    // Non-ASCII text went through as UTF-8 (é, ü), not as Latin-1 or escaped.
    expect(answer.bytes.includes(Buffer.from('Résumé', 'utf8'))).toBe(true);
    expect(answer.bytes.includes(Buffer.from('<b title=ü>café</b>', 'utf8'))).toBe(true);
  });

  it('documents/search and a union: the bytes of one engine result', async () => {
    if (!target.embedded) return;
    const params = SAMPLE[1] as Record<string, string>;
    const response = await fetch(`${target.url}/collections/${name}/documents/search?${new URLSearchParams(params)}`, { headers: { 'x-typesense-api-key': target.searchKey } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(sameBytesBut(bytes)).toBe(sameBytesBut(Buffer.from(JSON.stringify(runSearch(engine, name, { ...params, collection: name })), 'utf8')));

    const union = await post({ union: true, searches: [{ collection: name, q: 'resume', query_by: 'title' }, { collection: name, q: 'lead', query_by: 'title' }] });
    expect(union.status).toBe(200);
    expect(Number(union.length)).toBe(union.bytes.byteLength);
    const parsed = JSON.parse(union.bytes.toString('utf8'));
    expect(parsed.hits.length).toBeGreaterThan(0);
    expect(parsed).not.toHaveProperty('results');
  });

  it('the response limit counts bytes: an answer over it is refused in its slot', async () => {
    if (!target.embedded) return;
    const limited = await startTarget({ SEARCH_MAX_RESPONSE_BYTES: '1500' });
    try {
      const small = await createArticleCollection(limited, 'bytes_limit');
      const response = await fetch(`${limited.url}/multi_search`, {
        method: 'POST',
        headers: { 'x-typesense-api-key': limited.searchKey },
        body: JSON.stringify({ searches: [{ collection: small, q: '*', per_page: '1', include_fields: 'id' }, { collection: small, q: '*', per_page: '5' }] }),
      });
      const body = (await response.json()) as { results: { code?: number; hits?: unknown[] }[] };
      expect(response.status).toBe(200);
      expect(body.results[0]?.hits).toHaveLength(1);
      expect(body.results[1]?.code).toBe(422);
    } finally {
      await limited.close();
    }
  });
});
