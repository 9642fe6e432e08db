import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_EVENT_CHUNK } from 'contracts';
import { openDatabase, type Database } from '../database/index.js';
import { buildTestApp } from '../testing/buildTestApp.js';
import { INSIGHTS_EVENTS_PATH, insightsRoutes } from './insightsRoutes.js';

const ids = (count: number) => Array.from({ length: count }, (_, index) => `article-${index + 1}`);

function viewEvent(overrides: Record<string, unknown> = {}) {
  return {
    eventType: 'view',
    eventName: 'Hits Viewed',
    index: 'competence-articles',
    userToken: 'anonymous-0b5f9c1e-51b7-4c38-9a07-0e5a7e4ad2f1',
    objectIDs: ids(INSIGHTS_EVENT_CHUNK),
    ...overrides,
  };
}

describe('insights collector (SQLite)', () => {
  let dataDir: string;
  let db: Database;
  let app: FastifyInstance;
  const post = (payload: unknown, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: INSIGHTS_EVENTS_PATH,
      headers: { 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'khs-insights-'));
    db = await openDatabase({ dataDir });
    ({ app } = await buildTestApp({ features: [{ plugin: insightsRoutes, options: { events: db.insightsEvents } }] }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores a valid batch without a CSRF token and answers 200 as search-insights expects', async () => {
    const before = await db.insightsEvents.count();
    const response = await post({
      events: [
        viewEvent(),
        { eventType: 'click', eventName: 'Article Opened', index: 'competence-articles', userToken: 'anonymous-1', objectIDs: ['a'], positions: [3], queryID: 'q1', timestamp: 1_763_000_000_000 },
        { eventType: 'conversion', eventName: 'Article Saved', index: 'competence-articles', userToken: 'anonymous-1', objectIDs: ['a'] },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'OK', stored: 3 });
    expect(await db.insightsEvents.count()).toBe(before + 3);
  });

  it('accepts a beacon sent as text/plain', async () => {
    const response = await post(JSON.stringify({ events: [viewEvent({ objectIDs: ['x'] })] }), 'text/plain;charset=UTF-8');
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['no events array', { event: [] }, 'The body must be { events: [...] }'],
    ['an empty batch', { events: [] }, 'events must hold'],
    ['an unknown event type', { events: [viewEvent({ eventType: 'instantsearch' })] }, 'events[0].eventType'],
    ['more object ids than a chunk', { events: [viewEvent({ objectIDs: ids(INSIGHTS_EVENT_CHUNK + 1) })] }, 'events[0].objectIDs must list 1 to 20'],
    ['no object ids', { events: [viewEvent({ objectIDs: [] })] }, 'events[0].objectIDs'],
    ['positions not matching the ids', { events: [viewEvent({ objectIDs: ['a', 'b'], positions: [1] })] }, 'events[0].positions'],
    ['a missing user token', { events: [viewEvent({ userToken: undefined })] }, 'events[0].userToken'],
    ['a user token with markup', { events: [viewEvent({ userToken: '<script>' })] }, 'events[0].userToken'],
    ['an unknown field', { events: [viewEvent({ algoliaSource: ['instantsearch'] })] }, 'events[0].algoliaSource is not a known field'],
    ['a bad second event', { events: [viewEvent(), viewEvent({ index: '' })] }, 'events[1].index'],
  ])('rejects %s with a 400 JSON error and stores nothing', async (_case, payload, message) => {
    const before = await db.insightsEvents.count();
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid-insights-events' });
    expect(response.json().error).toContain(message);
    expect(await db.insightsEvents.count()).toBe(before);
  });

  it('rejects a body that is not JSON with a 400 JSON error', async () => {
    const response = await post('{not json', 'text/plain');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBeTypeOf('string');
  });
});
