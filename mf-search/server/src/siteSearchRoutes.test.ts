import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { buildInsightsService } from './buildInsightsService.js';
import { SITE_SEARCH_BODY_LIMIT_BYTES } from './edgePolicy.js';
import { SITE_SEARCH_PATH } from './siteSearchRoutes.js';
import { openInsightsStorage, type InsightsStorage } from './storage/openInsightsStorage.js';
import { normaliseTrackedQuery } from './validateSiteSearch.js';

function describeSiteSearchTracking(label: string, open: () => Promise<InsightsStorage>, dispose: () => Promise<void>) {
  describe(`site-search tracking (${label})`, () => {
    let app: FastifyInstance;
    let storage: InsightsStorage;
    const post = (payload: unknown, contentType = 'application/json') =>
      app.inject({ method: 'POST', url: SITE_SEARCH_PATH, headers: { 'content-type': contentType }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

    beforeAll(async () => {
      storage = await open();
      app = await buildInsightsService({ storage });
    });
    afterAll(async () => {
      await app?.close();
      await storage?.close();
      await dispose();
    });

    it('stores the normalised query, hit count, sorted filters, page and query id with the service time; 204', async () => {
      const before = Date.now();
      const response = await post({ query: '  Lead   MANAGEMENT ', hitCount: 7, filters: { topic: ['Sales', 'Leadership', 'Sales'] }, page: '/search', queryID: 'q-1' });
      expect(response.statusCode).toBe(204);
      expect(response.headers['cache-control']).toBe('no-store');
      const stored = await storage.searches.list();
      expect(stored.at(-1)).toEqual({ query: 'lead management', hitCount: 7, filters: { topic: ['Leadership', 'Sales'] }, page: '/search', queryId: 'q-1', searchedAt: expect.any(Number) });
      expect(stored.at(-1)!.searchedAt).toBeGreaterThanOrEqual(before);
    });

    it('accepts a beacon (text/plain JSON) without filters or query id, a search without hits too', async () => {
      const response = await post(JSON.stringify({ query: 'xyzzy', hitCount: 0, page: '/articles/kpi' }), 'text/plain');
      expect(response.statusCode).toBe(204);
      expect((await storage.searches.list()).at(-1)).toMatchObject({ query: 'xyzzy', hitCount: 0, filters: {}, page: '/articles/kpi' });
    });

    it.each([
      ['not an object', '[1]'],
      ['an unknown field (a visitor id)', { query: 'a', hitCount: 1, page: '/search', userToken: 'anonymous-1' }],
      ['an empty query', { query: '   ', hitCount: 1, page: '/search' }],
      ['a query longer than 256 characters', { query: 'a'.repeat(257), hitCount: 1, page: '/search' }],
      ['a negative hit count', { query: 'a', hitCount: -1, page: '/search' }],
      ['a fractional hit count', { query: 'a', hitCount: 1.5, page: '/search' }],
      ['a page with a query string', { query: 'a', hitCount: 1, page: '/search?q=a&email=x@y.z' }],
      ['a page on another host', { query: 'a', hitCount: 1, page: '//evil.example/x' }],
      ['a full URL as page', { query: 'a', hitCount: 1, page: 'https://evil.example/' }],
      ['filters that are not lists', { query: 'a', hitCount: 1, page: '/search', filters: { topic: 'Sales' } }],
      ['a filter attribute that is no name', { query: 'a', hitCount: 1, page: '/search', filters: { 'to pic': ['A'] } }],
      ['a bad query id', { query: 'a', hitCount: 1, page: '/search', queryID: 'has space' }],
      ['broken JSON', '{"query":'],
    ])('refuses %s with 400 and stores nothing', async (_label, payload) => {
      const before = (await storage.searches.list()).length;
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: expect.any(String) });
      expect((await storage.searches.list()).length).toBe(before);
    });

    it('refuses a body over the declared limit with 413 and another type with 415', async () => {
      const before = (await storage.searches.list()).length;
      expect((await post({ query: 'a', hitCount: 1, page: '/search', filters: { topic: ['x'.repeat(SITE_SEARCH_BODY_LIMIT_BYTES)] } })).statusCode).toBe(413);
      expect((await post('query=a', 'application/x-www-form-urlencoded')).statusCode).toBe(415);
      expect((await storage.searches.list()).length).toBe(before);
    });
  });
}

describe('normaliseTrackedQuery', () => {
  it('counts case, width and spacing variants as one query', () => {
    expect(new Set(['KPI', ' kpi ', 'Ｋｐｉ', 'kPi']).size).toBe(4);
    expect(new Set(['KPI', ' kpi ', 'Ｋｐｉ', 'kPi'].map(normaliseTrackedQuery))).toEqual(new Set(['kpi']));
    expect(normaliseTrackedQuery('lead\t\n  management')).toBe('lead management');
  });
});

let dir = '';
describeSiteSearchTracking(
  'SQLite',
  async () => openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-site-search-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeSiteSearchTracking('PostgreSQL', () => openInsightsStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
