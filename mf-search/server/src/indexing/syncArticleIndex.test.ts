import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateArticles, type Article } from '@khs/content';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { memoryIndexState } from './indexState.js';
import { syncArticleIndex, type SearchTarget } from './syncArticleIndex.js';

const ADMIN = 'indexer-test-admin';

describe('syncArticleIndex against the embedded search server', () => {
  let server: RunningSearchServer;
  let target: SearchTarget;
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
    target = { url: server.url, apiKey: ADMIN, collectionName: 'articles-under-test' };
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
});
