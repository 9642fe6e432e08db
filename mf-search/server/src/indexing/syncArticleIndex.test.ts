import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateArticles, type Article } from '@khs/content';
import { searchNodeFromUrl, searchNodeSettingsFromEnv } from '@khs/search-nodes';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { memoryIndexState } from './indexState.js';
import { syncArticleIndex, type SearchTarget } from './syncArticleIndex.js';

const ADMIN = 'indexer-test-admin';

describe('syncArticleIndex against the embedded search server', { timeout: 30_000 }, () => {
  let server: RunningSearchServer;
  let target: SearchTarget;
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
    target = { nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: 'articles-under-test' };
  });
  afterAll(() => server.close());

  async function search(q: string): Promise<{ found: number; ids: string[] }> {
    const response = await fetch(`${server.url}/collections/${target.collectionName}/documents/search?q=${encodeURIComponent(q)}&query_by=headline,content&per_page=50`, {
      headers: { 'x-typesense-api-key': ADMIN },
    });
    const body = (await response.json()) as { found: number; hits: { document: { id: string } }[] };
    return { found: body.found, ids: body.hits.map((hit) => hit.document.id) };
  }

  it('creates the collection, then sends only what changed and deletes what went', async () => {
    const state = memoryIndexState();
    const articles = generateArticles(20, { seed: 7 });
    const hashes = new Map(articles.map((article) => [article.id, `h-${article.id}`]));
    const first = await syncArticleIndex({ target, articles, hashes, state, searchSets: false });
    expect(first).toMatchObject({ created: true, full: true, upserted: 20, deleted: 0, failed: 0 });
    expect((await search('*')).found).toBe(20);

    const unchanged = await syncArticleIndex({ target, articles, hashes, state, searchSets: false });
    expect(unchanged).toMatchObject({ created: false, full: false, upserted: 0, deleted: 0, unchanged: 20 });

    const edited: Article = { ...articles[3]!, headline: 'Quarzitfelsen headline' };
    const removedId = articles[5]!.id;
    const next = articles.map((article) => (article.id === edited.id ? edited : article)).filter((article) => article.id !== removedId);
    const nextHashes = new Map(hashes);
    nextHashes.set(edited.id, 'h-changed');
    const incremental = await syncArticleIndex({ target, articles: next, hashes: nextHashes, state, searchSets: false });
    expect(incremental).toMatchObject({ full: false, upserted: 1, deleted: 1, unchanged: 18 });
    expect((await search('Quarzitfelsen')).ids).toEqual([edited.id]);
    expect((await search('*')).found).toBe(19);
    expect((await search('*')).ids).not.toContain(removedId);

    const full = await syncArticleIndex({ target, articles: next, hashes: nextHashes, state, full: true, searchSets: false });
    expect(full).toMatchObject({ full: true, upserted: 19, deleted: 0 });
  });

  it('sends everything again when its record does not match the index (record lost)', async () => {
    const articles = generateArticles(5, { seed: 9 });
    const hashes = new Map(articles.map((article) => [article.id, 'h']));
    const collection = { ...target, collectionName: 'articles-record-lost' };
    await syncArticleIndex({ target: collection, articles, hashes, state: memoryIndexState(), searchSets: false });
    const again = await syncArticleIndex({ target: collection, articles, hashes, state: memoryIndexState(), searchSets: false });
    expect(again).toMatchObject({ full: true, upserted: 5, created: false });
  });

  it('leaves out an article whose url or image is neither relative nor http(s), counts it as failed and deletes it if it was indexed', async () => {
    const articles = generateArticles(4, { seed: 11 });
    const hashes = new Map(articles.map((article) => [article.id, 'h']));
    const collection = { ...target, collectionName: 'articles-unsafe-links' };
    const state = memoryIndexState();
    await syncArticleIndex({ target: collection, articles, hashes, state, searchSets: false });
    const [scriptUrl, dataImage] = [articles[0]!, articles[1]!];
    const unsafe = [{ ...scriptUrl, url: 'javascript:alert(1)' }, { ...dataImage, image: 'data:text/html,<script>alert(1)</script>' }, articles[2]!, articles[3]!];
    const nextHashes = new Map(hashes).set(scriptUrl.id, 'h2').set(dataImage.id, 'h2');
    const result = await syncArticleIndex({ target: collection, articles: unsafe, hashes: nextHashes, state, searchSets: false });
    expect(result).toMatchObject({ failed: 2, upserted: 0, deleted: 2, unchanged: 2 });
    expect(result.refused.map((refusal) => [refusal.id, refusal.field])).toEqual([
      [scriptUrl.id, 'url'],
      [dataImage.id, 'image'],
    ]);
    expect(result.refused[0]!.message).toContain('"javascript:alert(1)" is neither relative nor http(s)');
    const all = await fetch(`${server.url}/collections/articles-unsafe-links/documents/search?q=*&query_by=headline&per_page=50`, { headers: { 'x-typesense-api-key': ADMIN } });
    const ids = ((await all.json()) as { hits: { document: { id: string } }[] }).hits.map((hit) => hit.document.id).sort();
    expect(ids).toEqual([articles[2]!.id, articles[3]!.id].sort());
  });
});

describe('syncArticleIndex against a cluster', { timeout: 30_000 }, () => {
  let live: RunningSearchServer;
  let dead: RunningSearchServer;
  beforeAll(async () => {
    [live, dead] = (await Promise.all([1, 2].map(() => startSearchServer({ port: 0, workers: 1, adminApiKey: ADMIN, searchOnlyApiKeys: [] })))) as [RunningSearchServer, RunningSearchServer];
    await dead.close();
  }, 30_000);
  afterAll(async () => live?.close());

  it('reads TYPESENSE_NODES and TYPESENSE_NEAREST_NODE as the shell does, else TYPESENSE_HOST/PORT/PROTOCOL', () => {
    expect(searchNodeSettingsFromEnv({ TYPESENSE_NODES: 'http://ts-1:8108, https://ts-2.example', TYPESENSE_NEAREST_NODE: 'https://lb.example/ts' })).toEqual({
      nodes: [
        { host: 'ts-1', port: 8108, protocol: 'http' },
        { host: 'ts-2.example', port: 443, protocol: 'https' },
      ],
      nearestNode: { host: 'lb.example', port: 443, protocol: 'https', path: '/ts' },
    });
    expect(searchNodeSettingsFromEnv({ TYPESENSE_HOST: 'ts.internal', TYPESENSE_PORT: '9108', TYPESENSE_PROTOCOL: 'https' })).toEqual({ nodes: [{ host: 'ts.internal', port: 9108, protocol: 'https' }] });
    expect(() => searchNodeSettingsFromEnv({ TYPESENSE_NODES: 'ts-1:8108' })).toThrow('TYPESENSE_NODES must list http(s) URLs');
  });

  it('writes through the next node when the first one is down', async () => {
    const target = { ...searchNodeSettingsFromEnv({ TYPESENSE_NODES: `${dead.url},${live.url}` }), apiKey: ADMIN, collectionName: 'articles-cluster' };
    const articles = generateArticles(3, { seed: 5 });
    const result = await syncArticleIndex({ target, articles, hashes: new Map(articles.map((article) => [article.id, 'h'])), state: memoryIndexState(), searchSets: false });
    expect(result).toMatchObject({ created: true, upserted: 3, failed: 0 });
    const answer = await fetch(`${live.url}/collections/articles-cluster`, { headers: { 'x-typesense-api-key': ADMIN } });
    expect(((await answer.json()) as { num_documents: number }).num_documents).toBe(3);
  });
});
