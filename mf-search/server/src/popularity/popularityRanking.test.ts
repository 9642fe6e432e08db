import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { searchSortBy } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionSchema, POPULARITY_FIELD } from '../indexing/articleCollectionSchema.js';
import { recordIndexVersion } from '../indexing/recordIndexVersion.js';
import type { SearchTarget } from '../indexing/syncArticleIndex.js';
import { indexVersionSearch, versionOfResult } from '../../../src/config/indexVersion.js';
import type { InsightsEvent } from '../storage/insightsEventRepository.js';
import { openInsightsStorage, type InsightsStorage } from '../storage/openInsightsStorage.js';
import { DEFAULT_POPULARITY_SETTINGS } from './popularitySettings.js';
import { createPopularityUpdater } from './popularityUpdater.js';

const ADMIN = 'popularity-test-admin';
const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 26, 12);
const QUERY = 'kennzahlen';

/** Two articles that match the query equally (same text, other ids). */
const article = (id: string) => ({
  id,
  headline: 'Kennzahlen im Controlling',
  title: 'Kennzahlen',
  intro: 'Welche Kennzahlen zählen',
  content: 'Kennzahlen für Teams',
  image: '/images/x.png',
  url: `/articles/${id}`,
  cta: 'Lesen',
  topic: ['Controlling'],
  date: 1_700_000_000,
  readingTime: 3,
  popularity: 0,
});

describe('popularity from behaviour, against the embedded search server over HTTP', { timeout: 60_000 }, () => {
  let server: RunningSearchServer;
  let storage: InsightsStorage;
  let dir: string;
  let clock = START;
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
    storage = await openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-popularity-'))) });
  });
  afterAll(async () => {
    await storage?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const target = (collectionName: string): SearchTarget => ({ nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName });

  async function admin(method: string, pathname: string, body?: string): Promise<Response> {
    const response = await fetch(`${server.url}${pathname}`, { method, headers: { 'x-typesense-api-key': ADMIN, 'content-type': 'application/json' }, ...(body ? { body } : {}) });
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return response;
  }

  async function createArticles(name: string, schema = collectionSchema(name)): Promise<void> {
    await admin('POST', '/collections', JSON.stringify(schema));
    await admin('POST', `/collections/${name}/documents/import?action=create`, ['first', 'second'].map((id) => JSON.stringify(article(id))).join('\n'));
  }

  /** The ids the site's search returns, in order, with popularity on or off (the shell's one decision). */
  async function siteSearch(name: string, popularity: boolean): Promise<string[]> {
    const sortBy = searchSortBy(popularity);
    const params = new URLSearchParams({ q: QUERY, query_by: 'headline,title,intro,content', ...(sortBy ? { sort_by: sortBy } : {}) });
    const body = (await (await admin('GET', `/collections/${name}/documents/search?${params}`)).json()) as { hits: { document: { id: string }; text_match: number }[] };
    return body.hits.map((hit) => hit.document.id);
  }

  async function popularityOf(name: string, id: string): Promise<number | undefined> {
    return ((await (await admin('GET', `/collections/${name}/documents/${id}`)).json()) as { popularity?: number }).popularity;
  }

  const behaviour = (collection: string, eventType: InsightsEvent['eventType'], userToken: string, objectId: string, timestamp: number): InsightsEvent => ({
    eventType,
    eventName: eventType === 'click' ? 'Article Opened' : 'Article Saved',
    index: collection,
    userToken,
    objectIds: [objectId],
    positions: eventType === 'click' ? [2] : undefined,
    queryId: 'q-1',
    timestamp,
  });

  it('moves an article clicked and saved by many visitors above an equal one; one visitor\'s 1,000 clicks move nothing; off keeps the order; old behaviour fades', async () => {
    const name = 'articles-popularity';
    await createArticles(name);
    const updater = createPopularityUpdater({ target: target(name), events: storage.events, settings: DEFAULT_POPULARITY_SETTINGS, now: () => clock });
    const before = await siteSearch(name, false);
    expect(before).toHaveLength(2);
    expect(await siteSearch(name, true)).toEqual(before);
    const [top, lower] = before as [string, string];

    // One visitor clicks the lower article 1,000 times within 17 minutes (20 requests' worth of batches).
    const flood = Array.from({ length: 1000 }, (_, i) => behaviour(name, 'click', 'anonymous-flooder', lower, clock - i * 1000));
    for (let start = 0; start < flood.length; start += 50) await storage.events.store(flood.slice(start, start + 50));
    expect(await updater.refresh()).toMatchObject({ eventsRead: 1000, written: 0 });
    expect(await siteSearch(name, true)).toEqual(before);
    expect(await popularityOf(name, lower)).toBe(0);

    // Eight distinct visitors search, open the lower article and save it.
    for (let visitor = 0; visitor < 8; visitor++) {
      await storage.events.store([behaviour(name, 'click', `anonymous-${visitor}`, lower, clock - 1000), behaviour(name, 'conversion', `anonymous-${visitor}`, lower, clock - 500)]);
    }
    // Only the 16 events stored since the last refresh are read.
    expect(await updater.refresh()).toMatchObject({ eventsRead: 16, written: 1, refused: 0 });
    // 8 clicks and 8 saves, plus the flooder's one counted click, barely decayed.
    expect(await popularityOf(name, lower)).toBeCloseTo(9 * 1 + 8 * 5, 0);
    expect(await siteSearch(name, true)).toEqual([lower, top]);
    // Off: the site's sort is relevance alone, and the order is as before.
    expect(await siteSearch(name, false)).toEqual(before);

    // Nothing moved: nothing is written.
    expect(await updater.refresh()).toMatchObject({ eventsRead: 0, written: 0 });
    // The indexer re-sends the article after an edit (popularity 0): the next refresh writes its score again.
    await admin('POST', `/collections/${name}/documents/import?action=upsert`, JSON.stringify(article(lower)));
    expect(await popularityOf(name, lower)).toBe(0);
    expect(await updater.refresh()).toMatchObject({ eventsRead: 0, written: 1 });
    expect(await siteSearch(name, true)).toEqual([lower, top]);

    // Decay (injected clock): a half-life later the score is half; past the horizon it is 0 again.
    clock += DEFAULT_POPULARITY_SETTINGS.halfLifeMs;
    await updater.refresh();
    expect(await popularityOf(name, lower)).toBeCloseTo((9 + 40) / 2, 0);
    clock += 10 * DEFAULT_POPULARITY_SETTINGS.halfLifeMs;
    expect(await updater.refresh()).toMatchObject({ eventsRead: 0, written: 1 });
    expect(await popularityOf(name, lower)).toBe(0);
    expect(await siteSearch(name, true)).toEqual(before);
  });

  it('adds the popularity field to a collection made before it, and a new updater resets what an earlier one wrote', async () => {
    const name = 'articles-before-popularity';
    const schema = collectionSchema(name);
    await createArticles(name, { ...schema, fields: schema.fields.filter((field) => field.name !== POPULARITY_FIELD.name) });
    for (let visitor = 0; visitor < 3; visitor++) await storage.events.store([behaviour(name, 'conversion', `anonymous-${visitor}`, 'first', clock)]);
    const first = await createPopularityUpdater({ target: target(name), events: storage.events, settings: DEFAULT_POPULARITY_SETTINGS, now: () => clock }).refresh();
    expect(first).toMatchObject({ fieldAdded: true, written: 1 });
    expect(await popularityOf(name, 'first')).toBe(15);
    expect(await siteSearch(name, true)).toEqual(['first', 'second']);

    // A restarted service, long after: it finds the old score in the index and writes it back to 0.
    const later = await createPopularityUpdater({ target: target(name), events: storage.events, settings: DEFAULT_POPULARITY_SETTINGS, now: () => clock + 200 * DAY }).refresh();
    expect(later).toMatchObject({ fieldAdded: false, written: 1 });
    expect(await popularityOf(name, 'first')).toBe(0);
  });

  it('a refresh that writes scores changes the index version readers key their cached answers on; one that writes nothing keeps it', async () => {
    const name = 'articles-popularity-version';
    await createArticles(name);
    await recordIndexVersion(target(name), 'content-1');
    const version = async () => {
      const body = (await (await admin('POST', '/multi_search', JSON.stringify({ searches: [indexVersionSearch(name)] }))).json()) as { results: unknown[] };
      return versionOfResult(body.results[0]);
    };
    expect(await version()).toBe('content-1');
    const updater = createPopularityUpdater({ target: target(name), events: storage.events, settings: DEFAULT_POPULARITY_SETTINGS, now: () => clock });
    expect(await updater.refresh()).toMatchObject({ written: 0 });
    expect(await version()).toBe('content-1');

    for (let visitor = 0; visitor < 3; visitor++) await storage.events.store([behaviour(name, 'conversion', `anonymous-v${visitor}`, 'second', clock)]);
    expect(await updater.refresh()).toMatchObject({ written: 1 });
    const moved = await version();
    expect(moved).toMatch(/^content-1~[0-9a-f]{12}$/);
    expect(await updater.refresh()).toMatchObject({ written: 0 });
    expect(await version()).toBe(moved);

    // The indexer's next version write drops the part; the scores' next move records it again.
    await recordIndexVersion(target(name), 'content-2');
    expect(await version()).toBe('content-2');
    await storage.events.store([behaviour(name, 'conversion', 'anonymous-v3', 'second', clock)]);
    expect(await updater.refresh()).toMatchObject({ written: 1 });
    expect(await version()).toMatch(/^content-2~[0-9a-f]{12}$/);
  });
});
