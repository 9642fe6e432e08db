import Typesense from 'typesense';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, multiSearch, type Target, startTarget } from './support/target.js';

const FORBIDDEN = 'Forbidden - a valid `x-typesense-api-key` header must be sent.';

describe('scoped search keys (generated like the typesense client does)', () => {
  let target: Target;
  let articles: string;
  let client: InstanceType<typeof Typesense.Client>;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'scoped');
    client = new Typesense.Client({ nodes: [{ url: target.url } as never], apiKey: target.adminKey, logLevel: 'silent' });
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${articles}`, { key: target.adminKey });
    await target.close();
  });

  it('embeds filter_by, AND-combined with the request filter', async () => {
    const scoped = client.keys().generateScopedSearchKey(target.searchKey, { filter_by: 'topic:=Leadership' });
    const [all] = await multiSearch(target, [{ collection: articles, q: '*' }], scoped);
    expect(hitIds(all).sort()).toEqual(['a1', 'a2']);
    const [narrowed] = await multiSearch(target, [{ collection: articles, q: '*', filter_by: 'readingTime:<5' }], scoped);
    expect(hitIds(narrowed)).toEqual(['a2']);
  });

  it('embedded parameters override request parameters', async () => {
    const scoped = client.keys().generateScopedSearchKey(target.searchKey, { per_page: 1 });
    const [result] = await multiSearch(target, [{ collection: articles, q: '*', per_page: 5 }], scoped);
    expect(result.hits).toHaveLength(1);
  });

  it('honours expires_at', async () => {
    const now = Math.floor(Date.now() / 1000);
    const valid = client.keys().generateScopedSearchKey(target.searchKey, { expires_at: now + 3600 });
    const [ok] = await multiSearch(target, [{ collection: articles, q: '*' }], valid);
    expect(ok.found).toBe(5);
    const expired = client.keys().generateScopedSearchKey(target.searchKey, { expires_at: now - 10 });
    const res = await http(target.url, 'POST', '/multi_search', { key: expired, keyInQuery: true, body: { searches: [{ collection: articles, q: '*' }] } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ message: FORBIDDEN });
  });

  it('rejects tampered keys, keys derived from a non-search parent, and admin use', async () => {
    const scoped = client.keys().generateScopedSearchKey(target.searchKey, { filter_by: 'topic:=Leadership' });
    const decoded = Buffer.from(scoped, 'base64').toString('utf8').replace('Leadership', 'Career');
    const tampered = Buffer.from(decoded).toString('base64');
    const tamperedRes = await http(target.url, 'POST', '/multi_search', { key: tampered, body: { searches: [{ collection: articles, q: '*' }] } });
    expect(tamperedRes.status).toBe(401);
    const fromUnknownParent = client.keys().generateScopedSearchKey('not-a-key-at-all', { filter_by: 'topic:=Career' });
    const unknownRes = await http(target.url, 'POST', '/multi_search', { key: fromUnknownParent, body: { searches: [{ collection: articles, q: '*' }] } });
    expect(unknownRes.status).toBe(401);
    const adminUse = await http(target.url, 'GET', `/collections/${articles}`, { key: scoped });
    expect(adminUse.status).toBe(401);
  });
});
