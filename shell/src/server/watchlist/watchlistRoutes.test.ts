import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { examplePageConfig, WATCHLIST_PDF_FILE_NAME, type StoredWatchlist } from 'contracts';
import { repositoryContentStore } from '../content/contentStore.js';
import { createLinkOriginResolver } from '../security/linkOrigin.js';
import { buildTestApp, fetchCsrf } from '../testing/buildTestApp.js';
import { pdfText } from './pdfText.testing.js';
import { RELATED_ARTICLES_MAX, WATCHLIST_MAX_ARTICLES } from './limits.js';
import { watchlistRoutes, type WatchlistRoutesOptions } from './watchlistRoutes.js';
import type { WatchlistShareStore } from './watchlistShareStore.js';
import { openTestShares } from './openTestShares.testing.js';

const articles = repositoryContentStore.listArticles();
const [first, second, third] = articles as [(typeof articles)[0], (typeof articles)[0], (typeof articles)[0]];
const localList = (...ids: string[]) => ({ articles: Object.fromEntries(ids.map((id) => [id, { title: `saved ${id}` }])) });

describe('watchlist routes', () => {
  let app: FastifyInstance;
  let shares: WatchlistShareStore & { count(): Promise<number> };
  let closeShares: () => Promise<void>;
  let dataDir: string;
  let csrf: { token: string; cookie: string };

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'watchlist-routes-'));
    ({ shares, close: closeShares } = await openTestShares(dataDir));
    const options: WatchlistRoutesOptions = {
      content: repositoryContentStore,
      shares,
      siteName: 'KHS Competence',
      pageConfig: examplePageConfig(),
      runtimeUrl: '/assets/shell-runtime.js',
      linkOrigin: createLinkOriginResolver({ publicBaseUrl: 'http://localhost' }),
      now: () => new Date('2026-03-12T10:00:00Z'),
    };
    ({ app } = await buildTestApp({ features: [{ plugin: watchlistRoutes, options }] }));
    csrf = await fetchCsrf(app);
  });
  afterEach(async () => {
    await app.close();
    await closeShares();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf.token, cookie: csrf.cookie, ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  describe('POST /api/watchlist', () => {
    it('resolves saved ids to teasers, drops unknown ids, and answers related articles and a sharing URL', async () => {
      const response = await post('/api/watchlist', { storedWatchlist: localList(first.id, 'no-such-article', second.id) });
      expect(response.statusCode).toBe(200);
      const { storedWatchlist } = response.json() as { storedWatchlist: StoredWatchlist };
      expect(Object.keys(storedWatchlist.articles)).toEqual([first.id, second.id]);
      expect(storedWatchlist.articles[first.id]).toEqual({
        id: first.id,
        overline: first.topic[0],
        title: first.title,
        href: first.url,
        tags: first.topic.map((title) => ({ title })),
        intro: first.intro,
        image: { src: first.image, srcSet: `${first.image} 1x`, alt: first.imageAlt },
        cta: first.cta,
        labels: { add: 'Add to watchlist', remove: 'Remove from watchlist' },
      });
      expect(storedWatchlist.sharingUrl).toMatch(/^http:\/\/localhost(:\d+)?\/watchlist\/shared\/[A-Za-z0-9_-]{8,}$/);
      expect(await shares.count()).toBe(1);
      const shareId = storedWatchlist.sharingUrl.split('/').at(-1)!;
      // Only known articles are shared, with the content store's titles (not the client's).
      expect(await shares.get(shareId)).toEqual({ [first.id]: { title: first.title }, [second.id]: { title: second.title } });
    });

    it('relates articles by shared topics, never a saved one, newest first, at most six', async () => {
      const response = await post('/api/watchlist', { storedWatchlist: localList(first.id) });
      const related = (response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.relatedArticles;
      const expected = articles.filter((a) => a.id !== first.id && a.topic.some((t) => first.topic.includes(t)));
      expect(related.length).toBe(Math.min(RELATED_ARTICLES_MAX, expected.length));
      expect(related.map((t) => t.id)).toEqual(expected.slice(0, RELATED_ARTICLES_MAX).map((a) => a.id));
      expect(related.some((t) => t.id === first.id)).toBe(false);
    });

    it('answers an empty list, no related articles and no sharing URL for an empty watchlist, storing nothing', async () => {
      const response = await post('/api/watchlist', { storedWatchlist: { articles: {} } });
      expect(response.json()).toEqual({ storedWatchlist: { articles: {}, relatedArticles: [], sharingUrl: '' } });
      expect(await shares.count()).toBe(0);
    });

    it('uses the configured public base URL for sharing URLs', async () => {
      await app.close();
      ({ app } = await buildTestApp({
        features: [
          {
            plugin: watchlistRoutes,
            options: {
              content: repositoryContentStore,
              shares,
              siteName: 'KHS',
              linkOrigin: createLinkOriginResolver({ publicBaseUrl: 'https://khs.example/' }),
              pageConfig: examplePageConfig(),
              runtimeUrl: '/r.js',
            } satisfies WatchlistRoutesOptions,
          },
        ],
      }));
      csrf = await fetchCsrf(app);
      const response = await post('/api/watchlist', { storedWatchlist: localList(first.id) });
      expect((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl).toMatch(
        /^https:\/\/khs\.example\/watchlist\/shared\/[A-Za-z0-9_-]+$/,
      );
    });
  });

  describe('bad input', () => {
    const oversized = JSON.stringify({ storedWatchlist: { articles: { a: { title: 'x'.repeat(300 * 1024) } } } });
    const tooMany = { storedWatchlist: localList(...Array.from({ length: WATCHLIST_MAX_ARTICLES + 1 }, (_, i) => `id-${i}`)) };
    it.each([
      ['not JSON', '{"storedWatchlist":', 400],
      ['an empty body', '', 400],
      ['a JSON array', [], 400],
      ['no storedWatchlist', { articles: {} }, 400],
      ['articles as a list of ids', { storedWatchlist: { articles: [first.id, 2] } }, 400],
      ['an entry without a title', { storedWatchlist: { articles: { [first.id]: {} } } }, 400],
      ['a title that is not a string', { storedWatchlist: { articles: { [first.id]: { title: 42 } } } }, 400],
      ['an entry that is a number', { storedWatchlist: { articles: { [first.id]: 7 } } }, 400],
      ['a prototype-polluting key', '{"storedWatchlist":{"articles":{"__proto__":{"title":"x"}}}}', 400],
      ['more than 500 articles', tooMany, 422],
      ['an oversized body', oversized, 413],
    ])('refuses %s with a JSON 4xx and stores nothing', async (_label, payload, status) => {
      for (const url of ['/api/watchlist', '/api/watchlist/pdf']) {
        const response = await post(url, payload);
        expect(response.statusCode, url).toBe(status);
        expect(response.headers['content-type']).toMatch(/application\/json/);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
      }
      expect(await shares.count()).toBe(0);
    });

    it('refuses a body that is not declared as JSON', async () => {
      const response = await post('/api/watchlist', 'storedWatchlist', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ error: expect.any(String) });
    });

    it.each([
      ['without a CSRF token', { 'x-csrf-token': '' }],
      ['with a wrong CSRF token', { 'x-csrf-token': 'forged-token' }],
    ])('refuses a request %s with 403 JSON and stores nothing', async (_label, headers) => {
      for (const url of ['/api/watchlist', '/api/watchlist/pdf']) {
        const response = await post(url, { storedWatchlist: localList(first.id) }, headers);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
      }
      expect(await shares.count()).toBe(0);
    });

    it('accepts exactly 500 articles', async () => {
      const ids = Array.from({ length: WATCHLIST_MAX_ARTICLES }, (_, i) => articles[i % articles.length]!.id + (i < articles.length ? '' : `-${i}`));
      const response = await post('/api/watchlist', { storedWatchlist: localList(...ids) });
      expect(response.statusCode).toBe(200);
      expect(Object.keys((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.articles)).toHaveLength(articles.length);
    });
  });

  describe('POST /api/watchlist/pdf', () => {
    it('answers a PDF with the site name, the date and each article title, intro, topics and link', async () => {
      const response = await post('/api/watchlist/pdf', { storedWatchlist: localList(first.id, 'unknown', third.id) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe(`attachment; filename="${WATCHLIST_PDF_FILE_NAME}"`);
      expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = (await pdfText(response.rawPayload)).replace(/\s+/g, ' ');
      expect(text).toContain('KHS Competence');
      expect(text).toContain('12 March 2026');
      for (const article of [first, third]) {
        expect(text).toContain(article.title);
        expect(text).toContain(article.intro.replace(/\s+/g, ' ').slice(0, 40));
        expect(text).toContain(article.topic.join(' · '));
        expect(text).toContain(`http://localhost${article.url}`);
      }
      expect(text).not.toContain('unknown');
    });
  });

  describe('shared watchlist page', () => {
    it('shows a shared list read-only with the import island, from the URL the watchlist call answered', async () => {
      const response = await post('/api/watchlist', { storedWatchlist: localList(second.id, first.id) });
      const sharingUrl = new URL((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl);
      const page = await app.inject({ method: 'GET', url: sharingUrl.pathname });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('Shared watchlist');
      expect(page.body.indexOf(escapeHtml(second.title))).toBeGreaterThan(0);
      expect(page.body.indexOf(escapeHtml(second.title))).toBeLessThan(page.body.indexOf(escapeHtml(first.title)));
      expect(page.body).not.toMatch(/data-island="mf-watchlist\/WatchlistButton"/);
      const props = /data-island="mf-watchlist\/SharedWatchlistImport" data-props="([^"]*)"/.exec(page.body)?.[1];
      expect(JSON.parse(unescapeHtml(props ?? ''))).toEqual({
        articles: { [second.id]: { title: second.title }, [first.id]: { title: first.title } },
      });
      expect(page.body).toContain('needs JavaScript');
    });

    it('explains when the shared articles no longer exist', async () => {
      const id = await shares.create({ 'deleted-article': { title: 'Gone' } });
      const page = await app.inject({ method: 'GET', url: `/watchlist/shared/${id}` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('no longer available');
      expect(page.body).not.toContain('SharedWatchlistImport');
    });

    it('answers 404 for an unknown or malformed share id', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'bad id!', '..%2F..%2Fetc']) {
        const page = await app.inject({ method: 'GET', url: `/watchlist/shared/${id}` });
        expect(page.statusCode, id).toBe(404);
        expect(page.body).toContain('Page not found');
      }
    });
  });
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
