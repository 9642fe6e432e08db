import { listArticles } from '@khs/content';
import { type RunningSearchServer, startSearchServer } from '@khs/search-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexArticles, refuseUnsafeLinks } from './indexArticles.js';

const ADMIN = 'index-articles-test-admin';
const [first, second, third] = listArticles() as [ReturnType<typeof listArticles>[number], ReturnType<typeof listArticles>[number], ReturnType<typeof listArticles>[number]];

async function getDocument(server: RunningSearchServer, collection: string, id: string): Promise<{ status: number; json: { url?: string } }> {
  const response = await fetch(`${server.url}/collections/${collection}/documents/${encodeURIComponent(id)}`, { headers: { 'x-typesense-api-key': ADMIN } });
  return { status: response.status, json: (await response.json()) as { url?: string } };
}

describe('refuseUnsafeLinks: an article is indexed only with relative or http(s) url and image', () => {
  it.each([
    [{ id: 'ok', url: '/articles/ok', image: '/img/ok.svg' }, undefined],
    [{ id: 'abs', url: 'https://example.org/a', image: 'http://example.org/a.png' }, undefined],
    [{ id: 'js', url: 'javascript:alert(1)', image: '/a.svg' }, 'article "js": url "javascript:alert(1)" is neither relative nor http(s); the article is not indexed'],
    [{ id: 'tab', url: 'java\tscript:alert(1)', image: '/a.svg' }, 'article "tab": url "java\\tscript:alert(1)" is neither relative nor http(s); the article is not indexed'],
    [{ id: 'img', url: '/a', image: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'article "img": image "data:image/svg+xml,<svg onload=alert(1)>" is neither relative nor http(s); the article is not indexed'],
  ])('%j → %s', (article, message) => {
    expect(refuseUnsafeLinks(article as never)?.message).toBe(message);
  });
});

describe('indexArticles leaves out articles with unsafe links, names them, and indexes the rest', () => {
  let server: RunningSearchServer;
  const collection = 'links';
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, workers: 1, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
  });
  afterAll(() => server.close());

  it('refuses a javascript: url and a data: image, imports the safe article', async () => {
    const result = await indexArticles({
      url: server.url,
      apiKey: ADMIN,
      collectionName: collection,
      searchSets: false,
      articles: [
        { ...first, url: 'javascript:alert(document.cookie)' },
        { ...second, image: 'data:text/html,<script>alert(1)</script>' },
        third,
      ],
    });
    expect(result.imported).toBe(1);
    expect(result.failed).toBe(2);
    expect(result.refused.map((refusal) => [refusal.id, refusal.field])).toEqual([
      [first.id, 'url'],
      [second.id, 'image'],
    ]);
    expect(result.refused[0]!.message).toContain(`article "${first.id}": url "javascript:alert(document.cookie)"`);
    expect((await getDocument(server, collection, first.id)).status).toBe(404);
    expect((await getDocument(server, collection, second.id)).status).toBe(404);
    expect((await getDocument(server, collection, third.id)).json.url).toBe(third.url);
  });
});
