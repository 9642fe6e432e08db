// Cacheable pages (issue 27): the cache policy per route, the ETag revalidation that replaces a
// purge, and the check that a shared-cacheable answer carries nothing of one visitor.
import type { FastifyInstance } from 'fastify';
import { listArticles } from '@khs/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellApp } from '../app.js';
import { buildTestApp, fetchCsrf } from '../testing/buildTestApp.js';
import { ifNoneMatchMatches, markPageDegraded, PAGE_CACHE, PageVersion, PERSONAL_RESPONSE_HEADERS, PRIVATE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL } from './pageCache.js';

const article = listArticles()[0]!;
const SHARED_PAGES = ['/', article.url, '/search?q=leadership'];

describe('page cache policy', () => {
  let shell: ShellApp;
  let app: FastifyInstance;
  beforeAll(async () => {
    shell = await buildTestApp({
      features: [
        {
          // A page marked shared that (wrongly) sets a cookie: the policy must not let a proxy keep it.
          plugin: async (feature: FastifyInstance) => {
            feature.get('/test/degraded-page', { config: { pageCache: 'shared' } }, async (_request, reply) => {
              markPageDegraded(reply);
              return reply.type('text/html').send('<p>an island holds its placeholder</p>');
            });
            feature.get('/test/personal-page', { config: { pageCache: 'shared' } }, async (_request, reply) =>
              reply.header('set-cookie', 'visitor=42; Path=/').type('text/html').send('<p>hello visitor 42</p>'),
            );
          },
        },
      ],
    });
    app = shell.app;
    await app.ready();
  });
  afterAll(() => app.close());

  it('states its lifetimes in one Cache-Control value', () => {
    expect(SHARED_PAGE_CACHE_CONTROL).toBe(
      `public, max-age=0, s-maxage=${PAGE_CACHE.sMaxAgeSeconds}, stale-while-revalidate=${PAGE_CACHE.staleWhileRevalidateSeconds}, stale-if-error=${PAGE_CACHE.staleIfErrorSeconds}`,
    );
  });

  it.each(SHARED_PAGES)('lets shared caches keep %s, with an ETag, varying on the encoding only', async (url) => {
    const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(response.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(String(response.headers.vary).toLowerCase()).toBe('accept-encoding');
  });

  it.each([
    ['the personal watchlist page', '/watchlist', PRIVATE_CACHE_CONTROL],
    ['an unknown article (404 page)', '/articles/no-such-article', PRIVATE_CACHE_CONTROL],
    ['the CSRF token call', '/actions/blitz/csrf/token', 'no-store'],
  ])('keeps %s private', async (_name, url, expected) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.headers['cache-control']).toBe(expected);
    expect(response.headers.etag).toBeUndefined();
  });

  it('downgrades a page marked shared that sets a cookie to private', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/personal-page' });
    expect(response.headers['set-cookie']).toBe('visitor=42; Path=/');
    expect(response.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(response.headers.etag).toBeUndefined();
  });

  it('keeps a degraded page (a remote failed, an island holds its placeholder) out of shared caches, without an ETag', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/degraded-page' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(response.headers.etag).toBeUndefined();
  });

  it.each(SHARED_PAGES)('answers %s with the same bytes for two different visitors, and nothing of either', async (url) => {
    // Visitor A has the secret cookie and a token (as after a vote), a language and an address; B has nothing.
    const { token, cookie } = await fetchCsrf(app);
    const visitorA = await app.inject({
      method: 'GET',
      url,
      headers: { cookie, 'x-csrf-token': token, 'accept-language': 'de-CH', 'user-agent': 'visitor-a' },
      remoteAddress: '10.0.0.1',
    });
    const visitorB = await app.inject({ method: 'GET', url, remoteAddress: '10.0.0.2' });
    expect(visitorA.statusCode).toBe(200);
    expect(visitorA.body).toBe(visitorB.body);
    expect(visitorA.headers.etag).toBe(visitorB.headers.etag);
    for (const response of [visitorA, visitorB]) {
      for (const header of PERSONAL_RESPONSE_HEADERS) expect(response.headers[header]).toBeUndefined();
      expect(response.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    }
    expect(visitorA.body).not.toContain(token);
    expect(visitorA.body).not.toContain(cookie.split('=')[1]!.slice(0, 20));
  });

  it('answers 304 without a body while the page version is unchanged, and the new page after a content change', async () => {
    const first = await app.inject({ method: 'GET', url: article.url });
    const etag = first.headers.etag as string;
    const revalidated = await app.inject({ method: 'GET', url: article.url, headers: { 'if-none-match': etag } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);

    shell.pageVersion.contentChanged();
    const afterPublish = await app.inject({ method: 'GET', url: article.url, headers: { 'if-none-match': etag } });
    expect(afterPublish.statusCode).toBe(200);
    expect(afterPublish.body).toContain(article.title);
    expect(afterPublish.headers.etag).not.toBe(etag);
  });

  it('tags each address with its own ETag', async () => {
    const [home, search] = await Promise.all(['/', '/search?q=leadership'].map((url) => app.inject({ method: 'GET', url })));
    expect(home!.headers.etag).not.toBe(search!.headers.etag);
  });
});

describe('page version', () => {
  it('changes when a remote goes live with another build (a deploy, a promote, a rollback) and only then', () => {
    let live = [{ remote: 'mf-search', buildVersion: '0.1.0+aaa' }, { remote: 'mf-watchlist', buildVersion: '0.1.0+bbb' }];
    const version = new PageVersion({ shellBuild: 'shell-1', remoteBuilds: () => live });
    const before = version.current();
    expect(version.current()).toBe(before);
    live = [live[0]!, { remote: 'mf-watchlist', buildVersion: '0.1.0+ccc' }];
    expect(version.current()).not.toBe(before);
  });

  it('follows a content version shared by every instance', () => {
    let published = '2026-11-26T01:00:00Z';
    const one = new PageVersion({ shellBuild: 'shell-1', contentVersion: () => published });
    const two = new PageVersion({ shellBuild: 'shell-1', contentVersion: () => published });
    expect(one.current()).toBe(two.current());
    const before = one.current();
    published = '2026-11-26T01:05:00Z';
    expect(one.current()).not.toBe(before);
    expect(one.current()).toBe(two.current());
  });

  it("follows the islands' data versions: a page rendered before the index caught up with the content is re-tagged once it did", () => {
    // The content changes first (the shell's store), the search index a moment later (the indexer's
    // sync): a page rendered in between holds the old hits under a tag that must not outlive them.
    let content = 'c1';
    let index = 'c0';
    const version = new PageVersion({ shellBuild: 'shell-1', contentVersion: () => content, dataVersions: () => [`search/List=${index}`] });
    const beforePublish = version.current();
    content = 'c2';
    const betweenPublishAndIndex = version.current();
    expect(betweenPublishAndIndex).not.toBe(beforePublish);
    index = 'c2';
    expect(version.current()).not.toBe(betweenPublishAndIndex);
    expect(new PageVersion({ shellBuild: 'shell-1', contentVersion: () => content, dataVersions: () => [`search/List=${index}`] }).current()).toBe(version.current());
  });

  it('compares If-None-Match weakly, in lists and with *', () => {
    expect(ifNoneMatchMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchMatches('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchMatches('*', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(ifNoneMatchMatches(undefined, 'W/"abc"')).toBe(false);
  });
});
