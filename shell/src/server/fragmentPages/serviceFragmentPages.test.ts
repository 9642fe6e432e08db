// A page a service declares (the watchlist service's shared-watchlist page): composed by the shell
// from the fragment the service (its own process, started as `npm start -w mf-watchlist` would)
// answers at the same path; the list is shared through the shell's proxy, as a browser does.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { StoredWatchlist } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryContentStore as content } from '../content/contentStore.js';
import { openDatabase, type Database } from '../database/index.js';
import { PRIVATE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL } from '../delivery/pageCache.js';
import { buildProductTestApp } from '../testing/buildProductTestApp.js';
import { fetchCsrf } from '../testing/buildTestApp.js';
import { startTeamServiceForTest, type TeamServiceUnderTest } from '../testing/teamServiceUnderTest.js';

const articles = content.listArticles();
const [first, second] = articles as [(typeof articles)[0], (typeof articles)[0]];

describe('a service-declared page: the shared watchlist', () => {
  let dataDir: string;
  let database: Database;
  let service: TeamServiceUnderTest;
  let app: FastifyInstance;
  const build = async (watchlistServiceUrl: string) => {
    const env = { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://khs.example', WATCHLIST_SERVICE_URL: watchlistServiceUrl };
    return buildProductTestApp({ env, database });
  };
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-shared-watchlist-'));
    database = await openDatabase({ dataDir });
    service = await startTeamServiceForTest('watchlist', { dataDir });
    app = await build(service.urls[0]!);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await service?.stop();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const share = async (...ids: string[]) => {
    const { token, cookie } = await fetchCsrf(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/watchlist',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ storedWatchlist: { articles: Object.fromEntries(ids.map((id) => [id, { title: `saved ${id}` }])) } }),
    });
    expect(response.statusCode).toBe(200);
    return new URL((response.json() as { storedWatchlist: StoredWatchlist }).storedWatchlist.sharingUrl);
  };

  it('shows a shared list read-only with the import island, from the sharing URL the watchlist call answered', async () => {
    const sharingUrl = await share(second.id, first.id);
    expect(sharingUrl.origin).toBe('https://khs.example');
    const page = await app.inject({ method: 'GET', url: sharingUrl.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex"/>');
    expect(page.body).not.toContain('rel="canonical"');
    expect(page.body).toContain('Shared watchlist');
    expect(page.body.indexOf(escapeHtml(second.title))).toBeGreaterThan(0);
    expect(page.body.indexOf(escapeHtml(second.title))).toBeLessThan(page.body.indexOf(escapeHtml(first.title)));
    expect(page.body).not.toMatch(/data-island="mf-watchlist\/WatchlistButton"/);
    const props = /data-island="mf-watchlist\/SharedWatchlistImport" data-props="([^"]*)"/.exec(page.body)?.[1];
    expect(JSON.parse(unescapeHtml(props ?? ''))).toEqual({ articles: { [second.id]: { title: second.title }, [first.id]: { title: first.title } } });
    expect(page.body).toContain('needs JavaScript');
    // The same snapshot for everyone with the link: shared caches may keep it (issue 27).
    expect(page.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(page.headers.etag).toMatch(/^W\//);
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('answers the 404 page for an unknown or malformed share id', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'bad id!', '..%2F..%2Fetc']) {
      const page = await app.inject({ method: 'GET', url: `/watchlist/shared/${id}` });
      expect(page.statusCode, id).toBe(404);
      expect(page.body).toContain('Page not found');
      expect(page.headers['cache-control'], id).toBe(PRIVATE_CACHE_CONTROL);
    }
  });

  it('answers a readable 503 page, quickly, when the watchlist service is down', async () => {
    const sharingUrl = await share(first.id);
    const withoutService = await build('http://127.0.0.1:1');
    try {
      const page = await withoutService.inject({ method: 'GET', url: sharingUrl.pathname });
      expect(page.statusCode).toBe(503);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('This shared watchlist cannot be shown right now. Please try again in a moment.');
      expect(page.body).toMatch(/<h1[^>]*>Shared watchlist<\/h1>/);
      expect(page.headers['x-robots-tag']).toBe('noindex');
    } finally {
      await withoutService.close();
    }
  });
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
