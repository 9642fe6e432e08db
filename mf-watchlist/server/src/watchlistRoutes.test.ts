import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import BetterSqlite3 from 'better-sqlite3';
import { isPageFragment, PAGE_FRAGMENT_MEDIA_TYPE, WATCHLIST_PDF_FILE_NAME, type PageFragment, type StoredWatchlist } from 'contracts';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER, edgeKeyOf } from '@khs/team-service/edge';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { buildWatchlistService } from './buildWatchlistService.js';
import { pdfText } from './pdfText.testing.js';
import { RELATED_ARTICLES_MAX, SHARE_BOUND, WATCHLIST_MAX_ARTICLES } from './limits.js';
import { openWatchlistStorage, type WatchlistStorage } from './storage/openWatchlistStorage.js';
import { repositoryContent } from './watchlistContent.js';

const EDGE_KEY = edgeKeyOf('watchlist-service-test-cookie-secret-0123456789');
const articles = repositoryContent.listArticles();
const [first, second, third] = articles as [(typeof articles)[0], (typeof articles)[0], (typeof articles)[0]];
const localList = (...ids: string[]) => ({ articles: Object.fromEntries(ids.map((id) => [id, { title: `saved ${id}` }])) });

interface Target {
  open(): Promise<WatchlistStorage>;
  /** Shares stored, counted with a separate connection (proves what was stored). */
  count(): Promise<number>;
  dispose(): Promise<void>;
}

function describeWatchlistService(label: string, target: Target) {
describe(`watchlist service routes (${label})`, () => {
  let app: FastifyInstance;
  let storage: WatchlistStorage;
  const shares = { count: () => target.count(), get: (id: string) => storage.shares.get(id), create: (list: Record<string, { title: string }>) => storage.shares.create(list) };

  beforeAll(async () => {
    storage = await target.open();
    app = await buildWatchlistService({ storage, edgeKey: EDGE_KEY, siteName: 'KHS Competence', now: () => new Date('2026-03-12T10:00:00Z') });
  });
  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await target.dispose();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/json', [EDGE_KEY_HEADER]: EDGE_KEY, [LINK_ORIGIN_HEADER]: 'http://localhost', ...headers },
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
      const before = await shares.count();
      const response = await post('/api/watchlist', { storedWatchlist: { articles: {} } });
      expect(response.json()).toEqual({ storedWatchlist: { articles: {}, relatedArticles: [], sharingUrl: '' } });
      expect(await shares.count()).toBe(before);
    });

    it('keeps one share per distinct list', async () => {
      const before = await shares.count();
      const urls = await Promise.all(Array.from({ length: 10 }, () => post('/api/watchlist', { storedWatchlist: localList(third.id) })));
      expect(new Set(urls.map((r) => (r.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl)).size).toBe(1);
      expect(await shares.count()).toBe(before + 1);
    });

    it('points sharing URLs at the origin the edge names, and ignores one from a request that did not come through the edge', async () => {
      const viaEdge = await post('/api/watchlist', { storedWatchlist: localList(first.id) }, { [LINK_ORIGIN_HEADER]: 'https://khs.example/' });
      expect((viaEdge.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl).toMatch(/^https:\/\/khs\.example\/watchlist\/shared\/[A-Za-z0-9_-]+$/);
      const forged = await post('/api/watchlist', { storedWatchlist: localList(first.id) }, { [EDGE_KEY_HEADER]: 'forged', [LINK_ORIGIN_HEADER]: 'https://evil.example' });
      expect((forged.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl).toMatch(/^\/watchlist\/shared\/[A-Za-z0-9_-]+$/);
    });
  });

  describe('share bound (SHARE_BOUND new shares per visitor and per address in a day)', () => {
    /** The n-th distinct list (ordered pairs of articles: 62 articles give 3782). */
    const nthList = (n: number) => {
      const a = Math.floor(n / (articles.length - 1));
      const b = n % (articles.length - 1);
      return localList(articles[a]!.id, articles[b >= a ? b + 1 : b]!.id);
    };
    // Lists led by the fourth article on: the tests above share lists of the first three.
    let nextList = 3 * (articles.length - 1);
    const share = async (address: string, visitor: string | undefined, list = nthList(nextList++)) => {
      const response = await post('/api/watchlist', { storedWatchlist: list }, { 'x-forwarded-for': address, ...(visitor ? { [VISITOR_ID_HEADER]: visitor } : {}) });
      expect(response.statusCode).toBe(200);
      return (response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist;
    };

    it(`gives one visitor ${SHARE_BOUND.perVisitor} new sharing URLs, then the list without one (an equal list keeps its URL), and nobody else is affected`, async () => {
      const before = await shares.count();
      const visitor = 'visitor-bound-aaaaaaaaaaaa';
      const firstList = nthList(nextList);
      const urls: string[] = [];
      for (let i = 0; i < SHARE_BOUND.perVisitor; i += 1) urls.push((await share('203.0.113.1', visitor)).sharingUrl);
      expect(urls.filter((url) => /\/watchlist\/shared\/[A-Za-z0-9_-]{22}$/.test(url))).toHaveLength(SHARE_BOUND.perVisitor);
      const refused = await share('203.0.113.1', visitor);
      expect(refused.sharingUrl).toBe('');
      expect(Object.keys(refused.articles)).toHaveLength(2);
      // A list it shared before still has its URL; nothing new was stored.
      expect((await share('203.0.113.1', visitor, firstList)).sharingUrl).toBe(urls[0]);
      expect(await shares.count()).toBe(before + SHARE_BOUND.perVisitor);
      // Another visitor on the same address, and a visitor elsewhere, still share.
      expect((await share('203.0.113.1', 'visitor-bound-bbbbbbbbbbbb')).sharingUrl).toMatch(/\/watchlist\/shared\//);
      expect((await share('203.0.113.2', 'visitor-bound-cccccccccccc')).sharingUrl).toMatch(/\/watchlist\/shared\//);
    });

    it(`gives one address ${SHARE_BOUND.perAddress} new shares whatever visitor ids it sends (thrown-away cookies), then none`, async () => {
      const address = '203.0.113.50';
      let shared = 0;
      for (let i = 0; i < SHARE_BOUND.perAddress; i += 1) {
        if ((await share(address, `visitor-address-${String(i).padStart(8, '0')}`)).sharingUrl) shared += 1;
      }
      expect(shared).toBe(SHARE_BOUND.perAddress);
      expect((await share(address, 'visitor-address-fresh-0000')).sharingUrl).toBe('');
      expect((await share(address, undefined)).sharingUrl).toBe('');
      expect((await share('203.0.113.51', undefined)).sharingUrl).toMatch(/\/watchlist\/shared\//);
    });

    it('believes a forwarded address only with the edge key (else the socket peer counts)', async () => {
      const before = await shares.count();
      const forged = await app.inject({
        method: 'POST',
        url: '/api/watchlist',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.50' },
        payload: JSON.stringify({ storedWatchlist: nthList(nextList++) }),
      });
      // 203.0.113.50 is past its bound, but without the edge key the request counts as its socket peer's.
      expect((forged.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl).toMatch(/\/watchlist\/shared\//);
      expect(await shares.count()).toBe(before + 1);
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
      const before = await shares.count();
      for (const url of ['/api/watchlist', '/api/watchlist/pdf']) {
        const response = await post(url, payload);
        expect(response.statusCode, url).toBe(status);
        expect(response.headers['content-type']).toMatch(/application\/json/);
        expect(response.json()).toMatchObject({ error: expect.any(String) });
      }
      expect(await shares.count()).toBe(before);
    });

    it('refuses a body that is not declared as JSON', async () => {
      const response = await post('/api/watchlist', 'storedWatchlist', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toMatchObject({ error: expect.any(String) });
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

    it('answers the PDF with relative links to a request that did not come through the edge (no link origin)', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/watchlist/pdf',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ storedWatchlist: localList(first.id) }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      // The article's link annotation (what a reader clicks) is the site-relative URL.
      const links = response.rawPayload.toString('latin1').match(/\/URI \(([^)]*)\)/g);
      expect(links).toEqual([`/URI (${first.url})`]);
    });
  });

  describe('GET /watchlist/shared/:shareId (the shared-watchlist page content the shell composes)', () => {
    const fragmentOf = (response: { headers: Record<string, unknown>; body: string }): PageFragment => {
      expect(String(response.headers['content-type']).split(';')[0]).toBe(PAGE_FRAGMENT_MEDIA_TYPE);
      const fragment: unknown = JSON.parse(response.body);
      expect(isPageFragment(fragment)).toBe(true);
      return fragment as PageFragment;
    };

    it('answers the shared list in shared order, read-only, with the import island and its map, at the sharing URL\'s path', async () => {
      const response = await post('/api/watchlist', { storedWatchlist: localList(second.id, first.id) });
      const sharingPath = new URL((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl, 'http://x').pathname;
      const shared = await app.inject({ url: sharingPath });
      expect(shared.statusCode).toBe(200);
      expect(shared.headers['cache-control']).toBe('no-store');
      const fragment = fragmentOf(shared);
      expect(fragment).toMatchObject({ title: 'Shared watchlist', pageClass: 'page-shared-watchlist' });
      expect(fragment.html.indexOf(`<a href="${second.url}">`)).toBeGreaterThan(0);
      expect(fragment.html.indexOf(`<a href="${second.url}">`)).toBeLessThan(fragment.html.indexOf(`<a href="${first.url}">`));
      expect(fragment.html).toContain('Someone shared 2 articles with you.');
      expect(fragment.html).not.toContain('<button');
      expect(fragment.islands).toHaveLength(1);
      expect(fragment.islands[0]).toMatchObject({ name: 'mf-watchlist/SharedWatchlistImport', props: { articles: { [second.id]: { title: second.title }, [first.id]: { title: first.title } } } });
      expect(Object.keys((fragment.islands[0]!.props as { articles: object }).articles)).toEqual([second.id, first.id]);
      expect(fragment.islands[0]!.placeholderHtml).toContain('needs JavaScript');
      expect(fragment.html).toContain('<!--khs-fragment-island:0-->');
    });

    it('answers an empty list, without the island, when the shared articles no longer exist', async () => {
      const id = await shares.create({ 'deleted-article': { title: 'Gone' } });
      const fragment = fragmentOf(await app.inject({ url: `/watchlist/shared/${id}` }));
      expect(fragment.html).toContain('The articles of this watchlist are no longer available.');
      expect(fragment.islands).toEqual([]);
    });

    it('answers 404 JSON for an unknown or malformed share id', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'bad%20id!', '..%2F..%2Fetc']) {
        const shared = await app.inject({ url: `/watchlist/shared/${id}` });
        expect(shared.statusCode, id).toBe(404);
        expect(shared.json()).toEqual({ error: expect.any(String), code: 'not-found' });
      }
    });
  });
});
}

let sqliteDir = '';
describeWatchlistService('SQLite', {
  open: () => openWatchlistStorage({ dataDir: (sqliteDir = mkdtempSync(path.join(tmpdir(), 'watchlist-service-'))) }),
  count: async () => {
    const reader = new BetterSqlite3(path.join(sqliteDir, 'watchlist.sqlite'), { readonly: true });
    try {
      return (reader.prepare('SELECT COUNT(*) AS n FROM watchlist_shares').get() as { n: number }).n;
    } finally {
      reader.close();
    }
  },
  dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }),
});

const postgresUrl = testDatabaseUrl();
if (postgresUrl) {
  const schema = temporaryPostgresSchema(postgresUrl);
  describeWatchlistService('PostgreSQL', {
    open: () => openWatchlistStorage({ dataDir: '', databaseUrl: postgresUrl, schema: schema.schema }),
    count: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      try {
        return Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${schema.schema}.watchlist_shares`)).rows[0]!.n);
      } finally {
        await client.end();
      }
    },
    dispose: () => schema.drop(),
  });
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
