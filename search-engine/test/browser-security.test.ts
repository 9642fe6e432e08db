import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isForeignBrowserRequest, parseAllowedOrigins, requestSender, routeKind } from '../src/http/browser-origins.js';
import { checkKeysForInterface, DEV_ADMIN_KEY, DEV_SEARCH_KEY, isLoopbackHost, readEnvFlag, serverOptionsFromEnv } from '../src/cli/env-config.js';
import { superviseSearchServer } from '../src/index.js';
import { createArticleCollection, http, type Target, startTarget } from './support/target.js';

// Embedded only: the admin-route and CORS rules are this server's (a real Typesense answers `*`).
const embedded = !process.env.TYPESENSE_URL;
const SITE = 'http://127.0.0.1:4300';
const REMOTE = 'http://127.0.0.1:4310';
const EVIL = 'http://127.0.0.1:9999';
const FOREIGN_ADMIN = 'Forbidden - this route does not answer requests a browser sent from a web page; only searches do.';

describe('browser origin rules (pure)', () => {
  it.each([
    ['GET', ['health'], 'health'],
    ['POST', ['multi_search'], 'search'],
    ['OPTIONS', ['multi_search'], 'search'],
    ['GET', ['collections', 'a', 'documents', 'search'], 'search'],
    ['OPTIONS', ['collections', 'a', 'documents', 'search'], 'search'],
    ['POST', ['collections', 'a', 'documents', 'search'], 'admin'],
    ['GET', ['collections'], 'admin'],
    ['GET', ['collections', 'a'], 'admin'],
    ['POST', ['collections', 'a', 'documents'], 'admin'],
    ['DELETE', ['collections', 'a', 'documents', '1'], 'admin'],
    ['POST', ['collections', 'a', 'documents', 'import'], 'admin'],
    ['GET', ['keys'], 'admin'],
    ['PUT', ['synonym_sets', 's'], 'admin'],
    ['GET', ['stats.json'], 'admin'],
    ['OPTIONS', ['collections'], 'admin'],
  ] as const)('%s /%s is a %s route', (method, segments, kind) => {
    expect(routeKind(method, segments)).toBe(kind);
  });

  const allowed = new Set([SITE, REMOTE]);
  it.each([
    [{}, false],
    [{ 'sec-fetch-mode': 'cors' }, false], // Node's fetch: no Origin, no Sec-Fetch-Site
    [{ 'sec-fetch-site': 'none' }, false],
    [{ 'sec-fetch-site': 'same-origin' }, false],
    [{ origin: SITE }, false],
    [{ origin: 'http://127.0.0.1:4300/' }, false],
    [{ origin: SITE, 'sec-fetch-site': 'same-site' }, true],
    [{ origin: EVIL }, true],
    [{ origin: 'null' }, true],
    [{ 'sec-fetch-site': 'cross-site' }, true],
    [{ 'sec-fetch-site': 'same-site' }, true],
  ])('headers %j: sent by a browser from another site = %s', (headers, foreign) => {
    expect(isForeignBrowserRequest(headers, allowed)).toBe(foreign);
  });

  it.each([
    [{}, 'server'],
    [{ 'sec-fetch-mode': 'cors' }, 'server'],
    [{ origin: SITE }, 'server'],
    [{ origin: SITE, 'sec-fetch-site': 'same-site' }, 'allowed-page'],
    [{ origin: 'http://127.0.0.1:4310/', 'sec-fetch-site': 'cross-site' }, 'allowed-page'],
    [{ origin: EVIL, 'sec-fetch-site': 'same-site' }, 'other-page'],
    [{ origin: EVIL }, 'other-page'],
    [{ origin: 'null' }, 'other-page'],
    // Page metadata without an Origin (a no-cors GET): its origin is unknown.
    [{ 'sec-fetch-site': 'same-site' }, 'other-page'],
  ])('headers %j: sent by %s', (headers, sender) => {
    expect(requestSender(headers, allowed)).toBe(sender);
  });

  it('the web-page settings: yes/no variables, off by default, and not both', () => {
    expect(readEnvFlag({}, 'X')).toBeUndefined();
    expect(readEnvFlag({ X: ' TRUE ' }, 'X')).toBe(true);
    expect(readEnvFlag({ X: '0' }, 'X')).toBe(false);
    expect(() => readEnvFlag({ X: 'maybe' }, 'X')).toThrow('X must be true or false, got "maybe"');
    const defaults = serverOptionsFromEnv({});
    expect([defaults.refuseAdminKeyFromPages, defaults.adminRoutesFromAllowedOrigins]).toEqual([undefined, undefined]);
    expect(serverOptionsFromEnv({ SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES: 'true' }).refuseAdminKeyFromPages).toBe(true);
    expect(serverOptionsFromEnv({ SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS: 'true' }).adminRoutesFromAllowedOrigins).toBe(true);
    expect(() => serverOptionsFromEnv({ SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES: 'true', SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS: 'true' })).toThrow(/contradict/);
  });

  it('SEARCH_ALLOWED_ORIGINS is a comma-separated list of http(s) origins; unset means none', () => {
    expect(parseAllowedOrigins(undefined)).toEqual([]);
    expect(parseAllowedOrigins(' ')).toEqual([]);
    expect(parseAllowedOrigins('http://127.0.0.1:4300/, https://Example.org')).toEqual([SITE, 'https://example.org']);
    expect(() => parseAllowedOrigins('http://ok.test,javascript:alert(1)')).toThrow('"javascript:alert(1)" is not an http(s) origin');
    expect(serverOptionsFromEnv({ SEARCH_ALLOWED_ORIGINS: `${SITE},${REMOTE}` }).allowedOrigins).toEqual([SITE, REMOTE]);
    expect(serverOptionsFromEnv({}).allowedOrigins).toEqual([]);
  });

  it('development keys: refused beyond loopback, a warning on loopback, nothing with own keys', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('127.1.2.3')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('::')).toBe(false);
    expect(isLoopbackHost('192.168.1.5')).toBe(false);
    expect(() => checkKeysForInterface({ host: '0.0.0.0', adminApiKey: DEV_ADMIN_KEY, searchOnlyApiKeys: ['own-search'] })).toThrow(
      /refusing to listen on 0\.0\.0\.0 with the development key\(s\) TYPESENSE_API_KEY/,
    );
    expect(() => checkKeysForInterface({ host: '10.0.0.1', adminApiKey: 'own-admin', searchOnlyApiKeys: [DEV_SEARCH_KEY] })).toThrow(/TYPESENSE_SEARCH_API_KEY/);
    expect(checkKeysForInterface({ host: '127.0.0.1', adminApiKey: DEV_ADMIN_KEY, searchOnlyApiKeys: [DEV_SEARCH_KEY] })).toEqual([
      expect.stringMatching(/^WARNING: using the development key\(s\) TYPESENSE_API_KEY \(admin\) and TYPESENSE_SEARCH_API_KEY/),
    ]);
    expect(checkKeysForInterface({ host: '0.0.0.0', adminApiKey: 'own-admin', searchOnlyApiKeys: ['own-search'] })).toEqual([]);
  });
});

describe.skipIf(!embedded)('the server refuses admin routes to web pages and answers CORS only for searches from allowed origins', () => {
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: `${SITE},${REMOTE}` });
    collection = await createArticleCollection(target, 'browser_security');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  const adminRequests = (): Array<{ method: string; path: string; rawBody?: string }> => [
    { method: 'GET', path: '/collections' },
    { method: 'GET', path: `/collections/${collection}` },
    { method: 'POST', path: `/collections/${collection}/documents?action=upsert`, rawBody: JSON.stringify({ id: 'planted', title: 'Planted' }) },
    { method: 'POST', path: `/collections/${collection}/documents/import?action=upsert`, rawBody: JSON.stringify({ id: 'planted', title: 'Planted' }) },
    { method: 'PATCH', path: `/collections/${collection}/documents/a1`, rawBody: JSON.stringify({ title: 'Changed' }) },
    { method: 'DELETE', path: `/collections/${collection}/documents/a1` },
    { method: 'PUT', path: '/synonym_sets/planted', rawBody: JSON.stringify({ items: [] }) },
    { method: 'GET', path: '/synonym_sets' },
    { method: 'GET', path: '/stats.json' },
    { method: 'DELETE', path: `/collections/${collection}` },
  ];
  const browserHeaders: Array<Record<string, string>> = [
    { origin: EVIL, 'sec-fetch-site': 'same-site' },
    { origin: EVIL },
    { 'sec-fetch-site': 'cross-site' },
    // The site's own pages never need the admin key either.
    { origin: SITE, 'sec-fetch-site': 'same-site' },
  ];

  it('every admin route answers 403 with a message to a browser page, key in the query, text/plain (no preflight needed), and changes nothing', async () => {
    for (const headers of browserHeaders) {
      for (const request of adminRequests()) {
        const res = await http(target.url, request.method, request.path, {
          key: target.adminKey,
          keyInQuery: true,
          rawBody: request.rawBody,
          headers: { ...headers, 'content-type': 'text/plain' },
        });
        expect({ ...request, headers, status: res.status, body: res.json }).toEqual({ ...request, headers, status: 403, body: { message: FOREIGN_ADMIN } });
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    const original = await http(target.url, 'GET', `/collections/${collection}/documents/a1`, { key: target.adminKey });
    expect(original.status).toBe(200);
    expect(original.json.title).not.toBe('Changed');
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/planted`, { key: target.adminKey })).status).toBe(404);
    expect((await http(target.url, 'GET', '/synonym_sets/planted', { key: target.adminKey })).status).toBe(404);
  });

  it('server-to-server calls (no Origin, no Sec-Fetch-Site) and typed addresses (Sec-Fetch-Site: none) keep the admin key', async () => {
    expect((await http(target.url, 'GET', '/collections', { key: target.adminKey, headers: { 'sec-fetch-mode': 'cors' } })).status).toBe(200);
    expect((await http(target.url, 'GET', '/collections', { key: target.adminKey, keyInQuery: true, headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    const upsert = await http(target.url, 'POST', `/collections/${collection}/documents?action=upsert`, {
      key: target.adminKey,
      body: { id: 'server-side', title: 'Server side', headline: 'h', intro: 'i', content: 'c', image: '/i.svg', url: '/articles/s', cta: 'Read', topic: ['T'], date: 1, readingTime: 1 },
    });
    expect(upsert.status).toBe(201);
    expect((await http(target.url, 'DELETE', `/collections/${collection}/documents/server-side`, { key: target.adminKey })).status).toBe(200);
  });

  it('searches answer every origin, but name only an allowed origin in CORS; the admin key is refused from pages of other origins', async () => {
    const searchPath = `/collections/${collection}/documents/search?q=*&query_by=title`;
    for (const origin of [SITE, REMOTE]) {
      const res = await http(target.url, 'GET', searchPath, { key: target.searchKey, keyInQuery: true, headers: { origin, 'sec-fetch-site': 'same-site' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toBe('Origin');
    }
    const foreign = await http(target.url, 'POST', '/multi_search', {
      key: target.searchKey,
      keyInQuery: true,
      rawBody: JSON.stringify({ searches: [{ collection, q: '*', query_by: 'title' }] }),
      headers: { origin: EVIL, 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
    });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const pageHeaders: Array<Record<string, string>> = [{ origin: EVIL, 'sec-fetch-site': 'same-site' }, { origin: 'null' }, { 'sec-fetch-site': 'same-site' }];
    for (const headers of pageHeaders) {
      const withAdminKey = await http(target.url, 'GET', searchPath, { key: target.adminKey, keyInQuery: true, headers });
      expect({ headers, status: withAdminKey.status }).toEqual({ headers, status: 403 });
      expect(withAdminKey.json.message).toMatch(/admin key is not accepted from a web page/);
      expect(withAdminKey.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('preflights: allowed for the search routes from an allowed origin, 403 without CORS headers otherwise', async () => {
    const preflight = (path: string, origin: string) =>
      http(target.url, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    const ok = await preflight(`/collections/${collection}/documents/search`, REMOTE);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(REMOTE);
    for (const [path, origin] of [
      ['/multi_search', EVIL],
      [`/collections/${collection}/documents`, SITE],
      ['/collections', SITE],
      [`/collections/${collection}`, EVIL],
    ] as const) {
      const refused = await preflight(path, origin);
      expect({ path, origin, status: refused.status }).toEqual({ path, origin, status: 403 });
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('access-control-allow-methods')).toBeNull();
    }
  });

  it('GET /health answers any caller', async () => {
    expect((await http(target.url, 'GET', '/health', { headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });
});

/**
 * A search as a browser page sends it across origins (Chromium from `localhost:3000` to
 * `localhost:8108`: `Origin` and `Sec-Fetch-Site: same-site`; the typesense client's key in the
 * header or, as the adapter sends it, in the query string; multi_search as `text/plain`).
 */
function browserShapedSearches(target: Target, collection: string, origin: string, key: string) {
  const headers = { origin, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors' };
  const multiSearch = JSON.stringify({ searches: [{ collection, q: 'team', query_by: 'title,content' }] });
  const searchPath = `/collections/${collection}/documents/search?q=team&query_by=title,content`;
  return Promise.all(
    [false, true].flatMap((keyInQuery) => [
      http(target.url, 'POST', '/multi_search', { key, keyInQuery, rawBody: multiSearch, headers: { ...headers, 'content-type': 'text/plain' } }).then((res) => ({ route: 'multi_search', keyInQuery, res })),
      http(target.url, 'GET', searchPath, { key, keyInQuery, headers }).then((res) => ({ route: 'documents/search', keyInQuery, res })),
    ]),
  );
}

// Issue 39: a Typesense client's page works unchanged (Typesense with --enable-cors lets the key
// decide). Runs against a real Typesense too (started with --enable-cors).
describe('a browser page of an allowed origin searches with any valid key, the admin key included', () => {
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: `${SITE},${REMOTE}` });
    collection = await createArticleCollection(target, 'browser_admin_key');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('multi_search and a single-collection search, admin key in the header and in the query string: 200 with results and CORS', async () => {
    for (const key of [target.adminKey, target.searchKey]) {
      for (const { route, keyInQuery, res } of await browserShapedSearches(target, collection, SITE, key)) {
        expect({ route, keyInQuery, status: res.status }).toEqual({ route, keyInQuery, status: 200 });
        const found = route === 'multi_search' ? res.json.results[0].found : res.json.found;
        expect(found).toBeGreaterThan(0);
        if (embedded) expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
      }
    }
  });

  it.skipIf(!embedded)('the same from an origin that is not allowed: the admin key is refused (403, no CORS); a search-only key is answered without CORS', async () => {
    for (const { route, keyInQuery, res } of await browserShapedSearches(target, collection, EVIL, target.adminKey)) {
      expect({ route, keyInQuery, status: res.status, message: res.json.message }).toEqual({
        route,
        keyInQuery,
        status: 403,
        message: 'Forbidden - the admin key is not accepted from a web page; browsers search with a search-only key.',
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    for (const { res } of await browserShapedSearches(target, collection, EVIL, target.searchKey)) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it.skipIf(!embedded)('admin routes stay refused to every page, allowed origins included, with the admin key', async () => {
    const list = await http(target.url, 'GET', '/collections', { key: target.adminKey, headers: { origin: SITE, 'sec-fetch-site': 'same-site' } });
    expect(list.status).toBe(403);
    expect(list.json.message).toBe(FOREIGN_ADMIN);
  });
});

describe.skipIf(!embedded)('SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES (the site stack\'s stance): the admin key is refused from every page', () => {
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: SITE, SEARCH_REFUSE_ADMIN_KEY_FROM_PAGES: 'true', SEARCH_WORKERS: '1' });
    collection = await createArticleCollection(target, 'browser_strict');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('an allowed origin searches with the search-only key (200, CORS) but not with the admin key (403); servers keep it', async () => {
    for (const { res } of await browserShapedSearches(target, collection, SITE, target.searchKey)) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(SITE);
    }
    for (const { route, keyInQuery, res } of await browserShapedSearches(target, collection, SITE, target.adminKey)) {
      expect({ route, keyInQuery, status: res.status }).toEqual({ route, keyInQuery, status: 403 });
      expect(res.json.message).toMatch(/admin key is not accepted from a web page/);
    }
    const server = await http(target.url, 'GET', `/collections/${collection}/documents/search?q=team&query_by=title`, { key: target.adminKey });
    expect(server.status).toBe(200);
  });
});

describe.skipIf(!embedded)('SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS (opt-in): pages of allowed origins reach the admin routes with the admin key', () => {
  let target: Target;
  let collection: string;
  beforeAll(async () => {
    target = await startTarget({ SEARCH_ALLOWED_ORIGINS: SITE, SEARCH_ADMIN_ROUTES_FROM_ALLOWED_ORIGINS: 'true', SEARCH_WORKERS: '1' });
    collection = await createArticleCollection(target, 'browser_tool');
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
    await target.close();
  });

  it('an allowed origin: preflight 204 with the admin methods, reads and writes answered with CORS; the search-only key still may not', async () => {
    const preflight = await http(target.url, 'OPTIONS', `/collections/${collection}/documents/a1`, {
      headers: { origin: SITE, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type, x-typesense-api-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
    const page = { origin: SITE, 'sec-fetch-site': 'same-site' };
    const list = await http(target.url, 'GET', '/collections', { key: target.adminKey, headers: page });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe(SITE);
    const patched = await http(target.url, 'PATCH', `/collections/${collection}/documents/a1`, { key: target.adminKey, body: { title: 'Changed from a tool' }, headers: page });
    expect(patched.status).toBe(200);
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/a1`, { key: target.adminKey })).json.title).toBe('Changed from a tool');
    expect((await http(target.url, 'GET', '/collections', { key: target.searchKey, headers: page })).status).toBe(401);
  });

  it('any other origin: every admin route still 403, preflights 403 without CORS', async () => {
    const pageHeaders: Array<Record<string, string>> = [{ origin: EVIL, 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of pageHeaders) {
      const res = await http(target.url, 'DELETE', `/collections/${collection}/documents/a1`, { key: target.adminKey, keyInQuery: true, headers });
      expect({ headers, status: res.status, body: res.json }).toEqual({ headers, status: 403, body: { message: FOREIGN_ADMIN } });
    }
    const preflight = await http(target.url, 'OPTIONS', '/collections', { headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect((await http(target.url, 'GET', `/collections/${collection}/documents/a1`, { key: target.adminKey })).status).toBe(200);
  });
});

describe.skipIf(!embedded)('the server process with the development keys', () => {
  it('refuses to listen beyond loopback (the supervisor reports the first start failing)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'search-dev-keys-'));
    const lines: string[] = [];
    try {
      await expect(
        superviseSearchServer({ host: '0.0.0.0', port: 0, dataDir, adminApiKey: DEV_ADMIN_KEY, searchApiKey: 'own-search-key', env: { SEARCH_WORKERS: '1' }, log: (line) => lines.push(line) }),
      ).rejects.toThrow(/exited with code 1 before it listened/);
      // Its output may arrive just after its exit.
      await vi.waitFor(() => expect(lines.join('\n')).toMatch(/refusing to listen on 0\.0\.0\.0 with the development key\(s\) TYPESENSE_API_KEY \(admin\)/));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
