import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexArticles, refuseUnsafeLinks } from '../src/index.js';
import { fixtureArticles } from './support/fixtures.js';
import { http, type Target, startTarget, uniqueName } from './support/target.js';

const [first, second, third] = fixtureArticles as [(typeof fixtureArticles)[number], (typeof fixtureArticles)[number], (typeof fixtureArticles)[number]];

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
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget();
    collection = uniqueName('links');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('refuses a javascript: url and a data: image, imports the safe article', async () => {
    const result = await indexArticles({
      url: target.url,
      apiKey: target.adminKey,
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
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/${first.id}`, { key: target.adminKey })).status).toBe(404);
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/${second.id}`, { key: target.adminKey })).status).toBe(404);
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/${third.id}`, { key: target.adminKey })).json.url).toBe(third.url);
  });
});
