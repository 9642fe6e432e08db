import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, http, type Target, startTarget } from './support/target.js';

const FORBIDDEN = 'Forbidden - a valid `x-typesense-api-key` header must be sent.';
const ALLOWED_ORIGIN = 'http://site.test:4300';

describe('transport: health, keys, CORS, routes, content types', () => {
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: ALLOWED_ORIGIN });
    collection = await createArticleCollection(target, 'transport');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('GET /health answers {"ok":true} without a key', async () => {
    const res = await http(target.url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('unknown routes answer 404 Not Found', async () => {
    const res = await http(target.url, 'GET', '/no-such-route', { key: target.adminKey });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ message: 'Not Found' });
  });

  it('a missing or wrong key answers 401 with the Typesense message', async () => {
    const missing = await http(target.url, 'GET', `/collections/${collection}`);
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({ message: FORBIDDEN });
    const wrong = await http(target.url, 'POST', '/multi_search', { key: 'wrong', body: { searches: [] } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ message: FORBIDDEN });
  });

  it('the search-only key can search but not administer', async () => {
    const searchOk = await http(target.url, 'POST', '/multi_search', {
      key: target.searchKey,
      body: { searches: [{ collection, q: '*' }] },
    });
    expect(searchOk.status).toBe(200);
    const admin = await http(target.url, 'GET', `/collections/${collection}`, { key: target.searchKey });
    expect(admin.status).toBe(401);
    const create = await http(target.url, 'POST', '/collections', { key: target.searchKey, body: { name: 'x', fields: [] } });
    expect(create.status).toBe(401);
    const importing = await http(target.url, 'POST', `/collections/${collection}/documents/import`, { key: target.searchKey, rawBody: '{}' });
    expect(importing.status).toBe(401);
  });

  it('accepts the key from the header or the x-typesense-api-key query parameter', async () => {
    const viaHeader = await http(target.url, 'GET', `/collections/${collection}`, { key: target.adminKey });
    const viaQuery = await http(target.url, 'GET', `/collections/${collection}`, { key: target.adminKey, keyInQuery: true });
    expect(viaHeader.status).toBe(200);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.json.name).toBe(collection);
  });

  it('answers CORS only for searches from an allowed origin (see browser-security.test.ts)', async () => {
    if (!target.embedded) return;
    const preflight = await http(target.url, 'OPTIONS', '/multi_search', {
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-typesense-api-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, x-typesense-api-key');
    expect(preflight.headers.get('access-control-max-age')).toBe('3600');
    const search = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, keyInQuery: true, body: { searches: [{ collection, q: '*' }] }, headers: { origin: ALLOWED_ORIGIN } });
    expect(search.status).toBe(200);
    expect(search.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(search.headers.get('vary')).toBe('Origin');
  });

  it('parses a multi_search body sent as text/plain (as the JS client does)', async () => {
    const res = await http(target.url, 'POST', '/multi_search', {
      key: target.searchKey,
      rawBody: JSON.stringify({ searches: [{ collection, q: '*', per_page: 1 }] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(200);
    expect(res.json.results[0].hits).toHaveLength(1);
  });

  it('answers bad JSON with 400 Bad JSON.', async () => {
    const res = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, rawBody: '{"searches": [', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ message: 'Bad JSON.' });
  });

  it('rejects request bodies over the size limit with 413 and keeps serving', async () => {
    if (!target.embedded) return; // the limit is a property of the embedded server's configuration
    const { startSearchServer } = await import('../src/index.js');
    const small = await startSearchServer({ port: 0, adminApiKey: 'a', searchOnlyApiKeys: ['s'], workers: 1, limits: { maxSearchBodyBytes: 1024 } });
    try {
      const res = await http(small.url, 'POST', '/multi_search', { key: 's', rawBody: JSON.stringify({ searches: [{ q: 'x'.repeat(5000) }] }) });
      expect(res.status).toBe(413);
      expect(res.json).toEqual({ message: 'Request body is too large (limit 1024 bytes).' });
      const health = await http(small.url, 'GET', '/health');
      expect(health.status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
