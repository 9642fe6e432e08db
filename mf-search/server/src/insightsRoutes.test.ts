import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSIGHTS_EVENT_CHUNK } from 'contracts';
import { POSTGRES_TESTS_SKIPPED_MESSAGE, temporaryPostgresSchema, testDatabaseUrl } from '@khs/team-service/testing';
import { buildInsightsService } from './buildInsightsService.js';
import { INSIGHTS_BODY_LIMIT_BYTES, INSIGHTS_EVENTS_PATH } from './insightsRoutes.js';
import { openInsightsStorage, type InsightsStorage } from './storage/openInsightsStorage.js';
import { MAX_EVENT_AGE_MS, MAX_EVENT_FUTURE_MS, MAX_EVENTS_PER_REQUEST } from './validateInsightsEvents.js';

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

interface Target {
  open(): Promise<InsightsStorage>;
  dispose(): Promise<void>;
  /** The SQLite file, to read the stored column type (SQLite only). */
  sqliteFile?: () => string;
}

function describeInsightsCollector(label: string, target: Target) {
describe(`insights collector (${label})`, () => {
  let app: FastifyInstance;
  let storage: InsightsStorage;
  const post = (payload: unknown, contentType = 'application/json') =>
    app.inject({
      method: 'POST',
      url: INSIGHTS_EVENTS_PATH,
      headers: { 'content-type': contentType },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const count = () => storage.events.count();

  beforeAll(async () => {
    storage = await target.open();
    app = await buildInsightsService({ storage });
  });
  afterAll(async () => {
    await app?.close();
    await storage?.close();
    await target.dispose();
  });

  it('stores a valid batch without a CSRF token and answers 200 as search-insights expects', async () => {
    const before = await count();
    const response = await post({
      events: [
        viewEvent(),
        { eventType: 'click', eventName: 'Article Opened', index: 'competence-articles', userToken: 'anonymous-1', objectIDs: ['a'], positions: [3], queryID: 'q1', timestamp: Date.now() - 1000 },
        { eventType: 'conversion', eventName: 'Article Saved', index: 'competence-articles', userToken: 'anonymous-1', objectIDs: ['a'] },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'OK', stored: 3 });
    expect(await count()).toBe(before + 3);
  });

  it('accepts a beacon sent as text/plain', async () => {
    const response = await post(JSON.stringify({ events: [viewEvent({ objectIDs: ['x'] })] }), 'text/plain;charset=UTF-8');
    expect(response.statusCode).toBe(200);
  });

  it('stores the timestamp as an integer, as the column says', async () => {
    const timestamp = Date.now() - 60_000;
    expect((await post({ events: [viewEvent({ objectIDs: ['typed'], timestamp })] })).statusCode).toBe(200);
    if (target.sqliteFile) {
      const { default: Sqlite } = await import('better-sqlite3');
      const raw = new Sqlite(target.sqliteFile(), { readonly: true });
      const types = raw.prepare('SELECT DISTINCT typeof(event_timestamp) AS t FROM insights_events').all();
      const stored = raw.prepare("SELECT event_timestamp AS ts FROM insights_events WHERE object_ids_json = '[\"typed\"]'").get() as { ts: number };
      raw.close();
      expect(types).toEqual([{ t: 'integer' }]);
      expect(stored.ts).toBe(timestamp);
    }
  });

  const now = Date.now();
  it.each([
    ['no events array', { event: [] }, 'The body must be { events: [...] }'],
    ['an empty batch', { events: [] }, 'events must hold'],
    ['more events than a request may carry', { events: Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, () => viewEvent({ objectIDs: ['a'] })) }, 'events must hold 1 to 50'],
    ['an unknown event type', { events: [viewEvent({ eventType: 'instantsearch' })] }, 'events[0].eventType'],
    ['more object ids than a chunk', { events: [viewEvent({ objectIDs: ids(INSIGHTS_EVENT_CHUNK + 1) })] }, 'events[0].objectIDs must list 1 to 20'],
    ['no object ids', { events: [viewEvent({ objectIDs: [] })] }, 'events[0].objectIDs'],
    ['an object id with markup', { events: [viewEvent({ objectIDs: ['<img src=x>'] })] }, 'events[0].objectIDs must be ids'],
    ['an over-long object id', { events: [viewEvent({ objectIDs: ['a'.repeat(129)] })] }, 'events[0].objectIDs must be ids'],
    ['a numeric object id', { events: [viewEvent({ objectIDs: [42] })] }, 'events[0].objectIDs must be ids'],
    ['positions not matching the ids', { events: [viewEvent({ objectIDs: ['a', 'b'], positions: [1] })] }, 'events[0].positions'],
    ['an absurd position', { events: [viewEvent({ objectIDs: ['a'], positions: [1e12] })] }, 'events[0].positions must be integers from 1'],
    ['a missing user token', { events: [viewEvent({ userToken: undefined })] }, 'events[0].userToken'],
    ['a user token with markup', { events: [viewEvent({ userToken: '<script>' })] }, 'events[0].userToken'],
    ['an over-long user token', { events: [viewEvent({ userToken: 'a'.repeat(130) })] }, 'events[0].userToken'],
    ['an event name with control characters', { events: [viewEvent({ eventName: 'Hits\u0000Viewed' })] }, 'events[0].eventName'],
    ['an index name with spaces', { events: [viewEvent({ index: 'competence articles' })] }, 'events[0].index'],
    ['a query id with quotes', { events: [viewEvent({ queryID: "q' OR 1=1" })] }, 'events[0].queryID'],
    ['timestamp 1e300', { events: [viewEvent({ timestamp: 1e300 })] }, 'events[0].timestamp'],
    ['a fractional timestamp', { events: [viewEvent({ timestamp: now + 0.5 })] }, 'events[0].timestamp'],
    ['a timestamp as a string', { events: [viewEvent({ timestamp: String(now) })] }, 'events[0].timestamp'],
    ['a timestamp older than 4 days', { events: [viewEvent({ timestamp: now - MAX_EVENT_AGE_MS - 60_000 })] }, 'events[0].timestamp'],
    ['a timestamp more than an hour ahead', { events: [viewEvent({ timestamp: now + MAX_EVENT_FUTURE_MS + 60_000 })] }, 'events[0].timestamp'],
    ['a negative timestamp', { events: [viewEvent({ timestamp: -1 })] }, 'events[0].timestamp'],
    ['an unknown field', { events: [viewEvent({ algoliaSource: ['instantsearch'] })] }, 'events[0].algoliaSource is not a known field'],
    ['a bad second event', { events: [viewEvent(), viewEvent({ index: '' })] }, 'events[1].index'],
  ])('rejects %s with a 400 JSON error and stores nothing', async (_case, payload, message) => {
    const before = await count();
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid-insights-events' });
    expect(response.json().error).toContain(message);
    expect(await count()).toBe(before);
  });

  it.each([
    ['malformed JSON as text', '{not json', 'text/plain', 400],
    ['malformed JSON as JSON', '{"events": [', 'application/json', 400],
    ['an empty JSON body', '', 'application/json', 400],
    ['JSON null', 'null', 'application/json', 400],
    ['a multipart body', '--x\r\nContent-Disposition: form-data; name="events"\r\n\r\n[]\r\n--x--\r\n', 'multipart/form-data; boundary=x', 415],
    ['a url-encoded body', 'events=1', 'application/x-www-form-urlencoded', 415],
    ['an unknown content type', '\u0000\u0001', 'application/octet-stream', 415],
  ])('answers %s with a 4xx JSON error and stores nothing', async (_case, payload, contentType, status) => {
    const before = await count();
    const response = await post(payload, contentType);
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json().error).toBeTypeOf('string');
    expect(await count()).toBe(before);
  });

  it('refuses a body over the limit by its declared size, before reading it (413)', async () => {
    const before = await count();
    const response = await app.inject({
      method: 'POST',
      url: INSIGHTS_EVENTS_PATH,
      headers: { 'content-type': 'application/json', 'content-length': String(INSIGHTS_BODY_LIMIT_BYTES + 1) },
      payload: '{}',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toBeTypeOf('string');
    expect(await count()).toBe(before);
  });

});
}

let sqliteDir = '';
describeInsightsCollector('SQLite', {
  open: () => openInsightsStorage({ dataDir: (sqliteDir = mkdtempSync(path.join(os.tmpdir(), 'khs-insights-'))) }),
  dispose: async () => rmSync(sqliteDir, { recursive: true, force: true }),
  sqliteFile: () => path.join(sqliteDir, 'insights.sqlite'),
});

const postgresUrl = testDatabaseUrl();
if (postgresUrl) {
  const schema = temporaryPostgresSchema(postgresUrl);
  describeInsightsCollector('PostgreSQL', {
    open: () => openInsightsStorage({ dataDir: '', databaseUrl: postgresUrl, schema: schema.schema }),
    dispose: () => schema.drop(),
  });
} else {
  console.warn(POSTGRES_TESTS_SKIPPED_MESSAGE);
}
