import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPageFragment, PAGE_FRAGMENT_MEDIA_TYPE, type PageFragment } from 'contracts';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { buildInsightsService } from '../buildInsightsService.js';
import { openInsightsStorage, type InsightsStorage } from '../storage/openInsightsStorage.js';
import { editorTokensFromEnv } from './editorAccess.js';
import { queriesCsv, csvCell } from './searchReportCsv.js';
import { readReportRange, SEARCH_REPORT_PATH } from './searchReportRoutes.js';

const TOKEN = 'editor-token-0123456789abcdef';
/** 2026-11-20T12:00Z: the service's clock in these tests. */
const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 24 * 60 * 60 * 1000;
const basic = (password: string) => `Basic ${Buffer.from(`editor:${password}`).toString('base64')}`;

function fragmentOf(body: string): PageFragment {
  const parsed: unknown = JSON.parse(body);
  expect(isPageFragment(parsed)).toBe(true);
  return parsed as PageFragment;
}

/** The text of a table row (`<tr data-query="…">`) as its cells' texts. */
function rowCells(html: string, tableClass: string, query: string): string[] | undefined {
  const table = new RegExp(`<table class="${tableClass}"[^>]*>([\\s\\S]*?)</table>`).exec(html)?.[1] ?? '';
  const row = new RegExp(`<tr data-query="${query}">([\\s\\S]*?)</tr>`).exec(table)?.[1];
  return row ? [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '')) : undefined;
}

function describeReport(label: string, open: () => Promise<InsightsStorage>, dispose: () => Promise<void>) {
  describe(`the editors' search report (${label})`, () => {
    let app: FastifyInstance;
    let storage: InsightsStorage;
    let clock = NOW;
    const get = (url: string, authorization?: string) => app.inject({ method: 'GET', url, headers: authorization ? { authorization } : {} });

    beforeAll(async () => {
      storage = await open();
      app = await buildInsightsService({ storage, editorTokens: [TOKEN], now: () => clock });
      const search = async (query: string, hitCount: number, queryID: string, at: number, filters: Record<string, string[]> = {}) => {
        clock = at;
        const response = await app.inject({ method: 'POST', url: '/api/insights/searches', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ query, hitCount, filters, page: '/search', queryID }) });
        expect(response.statusCode).toBe(204);
      };
      const event = async (eventType: 'click' | 'conversion', queryID: string, objectID: string, position?: number) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/insights/events',
          payload: { events: [{ eventType, eventName: eventType === 'click' ? 'Hit Clicked' : 'Article Saved', index: 'articles', userToken: 'anonymous-1', objectIDs: [objectID], ...(position ? { positions: [position] } : {}), queryID, timestamp: Date.now() }] },
        });
        expect(response.statusCode).toBeLessThan(300);
      };
      // "leadership" three times on the 19th and 20th: two opened a hit (positions 1 and 3), one of those saved it.
      await search('Leadership', 12, 's-1', NOW - DAY, { topic: ['Leadership'] });
      await search('leadership', 12, 's-2', NOW);
      await search('LEADERSHIP', 12, 's-3', NOW + 1000, { topic: ['Leadership', 'Teams'] });
      await event('click', 's-1', 'a', 1);
      await event('click', 's-2', 'b', 3);
      await event('conversion', 's-2', 'b');
      // Something that finds nothing, twice, and a search long before the range.
      await search('xyzzy', 0, 's-4', NOW);
      await search('xyzzy', 0, 's-5', NOW);
      await search('old', 3, 's-6', NOW - 90 * DAY);
      clock = NOW;
    });
    afterAll(async () => {
      await app?.close();
      await storage?.close();
      await dispose();
    });

    it('without a token: 401 with a Basic challenge and a page with no figures; a wrong token: 403, no figures either', async () => {
      const missing = await get(SEARCH_REPORT_PATH);
      expect(missing.statusCode).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Basic realm="khs-editors", charset="UTF-8"');
      expect(missing.headers['content-type']).toContain(PAGE_FRAGMENT_MEDIA_TYPE);
      expect(missing.headers['cache-control']).toBe('no-store');
      const wrong = await get(SEARCH_REPORT_PATH, basic('not-the-token-0123456789'));
      expect(wrong.statusCode).toBe(403);
      for (const response of [missing, wrong]) {
        const { html } = fragmentOf(response.body);
        expect(html).not.toContain('leadership');
        expect(html).not.toContain('xyzzy');
        expect(html).not.toContain('data-figure');
      }
      expect((await get(SEARCH_REPORT_PATH, `Bearer ${TOKEN}x`)).statusCode).toBe(403);
    });

    it('with the token (Basic or Bearer): counts, click-through rate, click position and conversion per query, no-result queries, per day, filters', async () => {
      const response = await get(`${SEARCH_REPORT_PATH}?from=2026-11-14&to=2026-11-20`, basic(TOKEN));
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const { html, title } = fragmentOf(response.body);
      expect(title).toBe('Search report');
      expect(html).toContain('<dd data-figure="searches">5</dd>');
      expect(html).toContain('<dd data-figure="no-result-searches">2</dd>');
      expect(html).toContain('<dd data-figure="click-through-rate">40%</dd>');
      expect(html).toContain('<dd data-figure="conversion-rate">20%</dd>');
      // Query, searches, average hits, CTR, average click position, conversion rate.
      expect(rowCells(html, 'search-report__queries', 'leadership')).toEqual(['leadership', '3', '12.0', '66.7%', '2.0', '33.3%']);
      expect(rowCells(html, 'search-report__queries', 'xyzzy')).toEqual(['xyzzy', '2', '0.0', '0%', '–', '0%']);
      expect(rowCells(html, 'search-report__queries', 'old')).toBeUndefined();
      const noResults = rowCells(html, 'search-report__no-results', 'xyzzy');
      expect(noResults?.slice(0, 2)).toEqual(['xyzzy', '2']);
      expect(rowCells(html, 'search-report__no-results', 'leadership')).toBeUndefined();
      expect(html).toMatch(/<a href="https:\/\/typesense\.org\/docs\/30\.0\/api\/synonyms\.html">Add a synonym/);
      // Seven days in the chart, the bars of the 19th and 20th as counted.
      expect([...html.matchAll(/data-day="([\d-]+)" data-searches="(\d+)"/g)].map((match) => `${match[1]}:${match[2]}`)).toEqual([
        '2026-11-14:0', '2026-11-15:0', '2026-11-16:0', '2026-11-17:0', '2026-11-18:0', '2026-11-19:1', '2026-11-20:4',
      ]);
      expect(html).toContain('role="img" aria-labelledby="search-report-chart-title search-report-chart-desc"');
      expect(html).toContain('5 searches from 2026-11-14 to 2026-11-20; most on 2026-11-20 (4).');
      expect(html).toMatch(/<th scope="row">topic<\/th><td>Leadership<\/td><td>2<\/td>/);
      expect(html).toMatch(/<th scope="row">topic<\/th><td>Teams<\/td><td>1<\/td>/);
      expect(html).toContain('download="search-queries-2026-11-14-2026-11-20.csv"');
      expect((await get(SEARCH_REPORT_PATH, `Bearer ${TOKEN}`)).statusCode).toBe(200);
    });

    it('the range decides: the default is the last 30 days, an older range shows only its own searches', async () => {
      const defaults = fragmentOf((await get(SEARCH_REPORT_PATH, basic(TOKEN))).body).html;
      expect(defaults).toContain('value="2026-10-22"');
      expect(defaults).toContain('<dd data-figure="searches">5</dd>');
      const old = fragmentOf((await get(`${SEARCH_REPORT_PATH}?from=2026-08-01&to=2026-08-31`, basic(TOKEN))).body).html;
      expect(old).toContain('<dd data-figure="searches">1</dd>');
      expect(rowCells(old, 'search-report__queries', 'old')).toEqual(['old', '1', '3.0', '0%', '–', '0%']);
    });

    it.each([
      ['not a date', '?from=yesterday&to=2026-11-20', 'Give both days as dates'],
      ['an impossible date', '?from=2026-02-30&to=2026-03-01', 'Give both days as dates'],
      ['the first day after the last', '?from=2026-11-20&to=2026-11-01', 'must not be after'],
      ['more than a year', '?from=2024-01-01&to=2026-01-01', 'at most 366 days'],
    ])('a range that is %s is a 400 page with the form and no figures', async (_case, query, message) => {
      const response = await get(`${SEARCH_REPORT_PATH}${query}`, basic(TOKEN));
      expect(response.statusCode).toBe(400);
      const { html } = fragmentOf(response.body);
      expect(html).toContain(message);
      expect(html).toMatch(/<form class="search-report__range"[^>]* method="get"/);
      expect(html).not.toContain('data-figure');
    });
  });
}

describe('the report without a configured token, and its parts', () => {
  it('is off (404) when no editor token is configured', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-report-off-'));
    const storage = await openInsightsStorage({ dataDir });
    const app = await buildInsightsService({ storage });
    try {
      expect((await app.inject({ method: 'GET', url: SEARCH_REPORT_PATH, headers: { authorization: basic(TOKEN) } })).statusCode).toBe(404);
    } finally {
      await app.close();
      await storage.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes EDITOR_TOKEN and OPERATOR_TOKEN, and refuses a short one by name', () => {
    expect(editorTokensFromEnv({})).toEqual([]);
    expect(editorTokensFromEnv({ EDITOR_TOKEN: TOKEN, OPERATOR_TOKEN: ' operator-token-0123456789 ' })).toEqual([TOKEN, 'operator-token-0123456789']);
    expect(() => editorTokensFromEnv({ EDITOR_TOKEN: 'short' })).toThrow(/EDITOR_TOKEN must be at least 16 characters/);
  });

  it('keeps a visitor query that looks like a formula as text in the CSV', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('plain, with comma')).toBe('"plain, with comma"');
    const csv = queriesCsv({
      range: { from: 0, to: 1 }, searches: 2, noResultSearches: 0, clickedSearches: 1, convertedSearches: 1, noResultQueries: [], searchesPerDay: [], topFilters: [],
      topQueries: [{ query: 'kpi', searches: 2, averageHits: 4, clickedSearches: 1, averageClickPosition: 2, convertedSearches: 1 }],
    });
    expect(csv).toBe('query,searches,average_hits,clicked_searches,click_through_rate,average_click_position,converted_searches,conversion_rate\r\nkpi,2,4,1,0.5,2,1,0.5\r\n');
  });

  it('reads a range of days, both included', () => {
    expect(readReportRange({ from: '2026-11-01', to: '2026-11-02' }, NOW)).toEqual({ ok: true, days: { from: '2026-11-01', to: '2026-11-02' }, from: Date.UTC(2026, 10, 1), to: Date.UTC(2026, 10, 3) });
  });
});

let dir = '';
describeReport(
  'SQLite',
  async () => openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-search-report-'))) }),
  async () => rmSync(dir, { recursive: true, force: true }),
);

const databaseUrl = testDatabaseUrl();
if (databaseUrl) {
  const schema = temporaryPostgresSchema(databaseUrl);
  describeReport('PostgreSQL', () => openInsightsStorage({ dataDir: '', databaseUrl, schema: schema.schema }), () => schema.drop());
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
