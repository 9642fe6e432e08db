// Ties the call paths in contracts (DEFAULT_CALL_URLS, what every remote reads from the page config)
// to the routes the running site serves: a path changed on one side only fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { callRoutePattern, DEFAULT_CALL_URLS, type CallUrls } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database/index.js';
import { buildProductTestApp } from './testing/buildProductTestApp.js';

/** The method of each call; a call added to contracts without one here fails the typecheck. */
const CALL_METHODS: Record<keyof CallUrls, HTTPMethods> = {
  csrfToken: 'GET',
  watchlist: 'POST',
  download: 'POST',
  surveyResults: 'GET',
  surveySubmit: 'POST',
  articleSurvey: 'GET',
  insights: 'POST',
  siteSearch: 'POST',
  searchPage: 'GET',
  watchlistPage: 'GET',
};

describe('call paths: contracts and routes', () => {
  let app: FastifyInstance;
  let database: Database;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-call-paths-'));
    database = await openDatabase({ dataDir });
    app = await buildProductTestApp({ env: { DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://example.org' }, database });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(Object.entries(CALL_METHODS) as [keyof CallUrls, HTTPMethods][])('serves %s at its contract path', (call, method) => {
    const url = callRoutePattern(DEFAULT_CALL_URLS[call]);
    expect(app.hasRoute({ method, url }), `${method} ${url}`).toBe(true);
  });

  it('answers a call only with its own method, and nothing at paths the contract does not name', () => {
    expect(app.hasRoute({ method: 'GET', url: DEFAULT_CALL_URLS.watchlist })).toBe(false);
    expect(app.hasRoute({ method: 'POST', url: DEFAULT_CALL_URLS.csrfToken })).toBe(false);
    expect(app.hasRoute({ method: 'POST', url: '/api/surveys/:formHandle/votes' })).toBe(false);
    expect(app.hasRoute({ method: 'POST', url: '/api/watchlist/share' })).toBe(false);
  });
});
