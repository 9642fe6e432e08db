import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSearchServer, type RunningSearchServer } from '@khs/search-engine';
import { searchNodeFromUrl } from '@khs/search-nodes';
import { POPULARITY_SORT_BY } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexVersionSearch, versionOfResult } from '../../../src/config/indexVersion.js';
import { collectionSchema } from '../indexing/articleCollectionSchema.js';
import { recordIndexVersion } from '../indexing/recordIndexVersion.js';
import type { SearchTarget } from '../indexing/syncArticleIndex.js';
import { openInsightsStorage, type InsightsStorage } from '../storage/openInsightsStorage.js';
import { createLearnedCurationWriter, learnedCurationSetName } from './learnedCurationSet.js';
import { createRerankLearner } from './rerankLearner.js';

const ADMIN = 'rerank-test-admin';
const NOW = Date.UTC(2026, 11, 6, 10);
const QUERY = 'teamwork';
const COLLECTION = 'articles-rerank';

/** 30 articles matching the query, the earlier ones better (the word in more fields). */
const article = (n: number) => ({
  id: `a${String(n).padStart(2, '0')}`,
  headline: n <= 10 ? 'Teamwork in practice' : 'Working together',
  title: n <= 20 ? `Teamwork ${n}` : `Notes ${n}`,
  intro: 'How teams work',
  content: `Teamwork, article ${n}.`,
  image: '/images/x.png',
  url: `/articles/a${n}`,
  cta: 'Read',
  topic: [n % 2 === 0 ? 'Even' : 'Odd'],
  date: 1_700_000_000 + n,
  readingTime: 3,
  popularity: 0,
});

describe('learned re-ranking as a curation set, against the embedded search server over HTTP', { timeout: 60_000 }, () => {
  let server: RunningSearchServer;
  let storage: InsightsStorage;
  let dir: string;
  beforeAll(async () => {
    server = await startSearchServer({ port: 0, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
    storage = await openInsightsStorage({ dataDir: (dir = mkdtempSync(path.join(os.tmpdir(), 'khs-rerank-'))) });
  });
  afterAll(async () => {
    await storage?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const target: () => SearchTarget = () => ({ nodes: [searchNodeFromUrl(server.url)!], apiKey: ADMIN, collectionName: COLLECTION });

  async function admin(method: string, pathname: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${server.url}${pathname}`, {
      method,
      headers: { 'x-typesense-api-key': ADMIN, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    // The import answers JSON Lines.
    const text = await response.text();
    return text.includes('\n') ? text : JSON.parse(text);
  }

  /** The ids the site's search returns (its sort, curations applied), in order. */
  async function siteSearch(filterBy?: string): Promise<string[]> {
    const params = new URLSearchParams({ q: QUERY, query_by: 'headline,title,intro,content', sort_by: POPULARITY_SORT_BY, per_page: '30', ...(filterBy ? { filter_by: filterBy } : {}) });
    const body = (await admin('GET', `/collections/${COLLECTION}/documents/search?${params}`)) as { hits: { document: { id: string } }[] };
    return body.hits.map((hit) => hit.document.id);
  }

  async function indexVersion(): Promise<string> {
    const body = (await admin('POST', '/multi_search', { searches: [indexVersionSearch(COLLECTION)] })) as { results: unknown[] };
    return versionOfResult(body.results[0]);
  }

  /** `count` visitors, each searching the query (tracked: it has a query id) and clicking `articleId`. */
  async function visitorsPick(articleId: string, count: number, prefix: string, tracked = true): Promise<void> {
    for (let visitor = 0; visitor < count; visitor++) {
      const queryId = `s-${prefix}-${visitor}`;
      if (tracked) await storage.searches.store({ query: QUERY, hitCount: 30, filters: {}, page: '/search', queryId, searchedAt: NOW - 60_000 });
      await storage.events.store([{ eventType: 'click', eventName: 'Article Opened', index: COLLECTION, userToken: `${prefix}-${visitor}`, objectIds: [articleId], positions: [8], queryId, timestamp: NOW - 50_000 }]);
    }
  }

  it('lifts what many visitors pick into the top 3, never from beyond 20; editors win; switched off restores the text order', async () => {
    await admin('PUT', '/curation_sets/editors', { items: [] });
    await admin('POST', '/collections', { ...collectionSchema(COLLECTION), curation_sets: ['editors'] });
    await admin('POST', `/collections/${COLLECTION}/documents/import?action=create`, Array.from({ length: 30 }, (_, i) => JSON.stringify(article(i + 1))).join('\n'));
    await recordIndexVersion(target(), 'content-1');
    const writer = createLearnedCurationWriter(target());
    const organic = await writer.organicResults(QUERY);
    expect(organic).toHaveLength(20);
    const textOrder = await siteSearch();
    expect(textOrder.slice(0, 20)).toEqual(organic);
    const [eighth, twelfth, twentySecond, eleventh] = [textOrder[7]!, textOrder[11]!, textOrder[21]!, textOrder[10]!];

    await visitorsPick(eighth, 5, 'eighth');
    // Beyond the first 20: never moves in, however many pick it.
    await visitorsPick(twentySecond, 12, 'beyond');
    // Clicks without a tracked search (no tracking consent: no query text) teach nothing.
    await visitorsPick(twelfth, 6, 'untracked', false);
    // One visitor's 100 clicks move nothing.
    for (let click = 0; click < 100; click++) {
      await storage.events.store([{ eventType: 'click', eventName: 'Article Opened', index: COLLECTION, userToken: 'flooder', objectIds: [eleventh], queryId: 's-eighth-0', timestamp: NOW - 40_000 }]);
    }

    const learner = createRerankLearner({ index: COLLECTION, store: storage.reranking, organicResults: writer.organicResults, apply: writer.apply, minVisitors: 3, now: () => NOW });
    const versionBefore = await indexVersion();
    const outcome = await learner.learn();
    expect(outcome.applied).toEqual([{ query: QUERY, pins: [{ id: eighth, position: 1, from: 8, visitors: 5 }], visitors: 18 }]);
    const learned = await siteSearch();
    expect(learned.slice(0, 3)).toEqual([eighth, textOrder[0], textOrder[1]]);
    // Nothing from beyond the first 20 moved in; the rest keep their text order.
    expect(new Set(learned.slice(0, 20))).toEqual(new Set(textOrder.slice(0, 20)));
    expect(learned.filter((id) => id !== eighth)).toEqual(textOrder.filter((id) => id !== eighth));
    // The set is the service's own, attached after the editors'; the version readers key caches on moved.
    expect(((await admin('GET', `/collections/${COLLECTION}`)) as { curation_sets: string[] }).curation_sets).toEqual(['editors', learnedCurationSetName(COLLECTION)]);
    const versionLearned = await indexVersion();
    expect(versionLearned).not.toBe(versionBefore);
    expect(versionLearned.startsWith('content-1+')).toBe(true);
    // A filtered search shows a pinned result only when it passes the filter.
    const eighthTopic = article(Number(eighth.slice(1))).topic[0]!;
    const otherTopic = eighthTopic === 'Even' ? 'Odd' : 'Even';
    expect(await siteSearch(`topic:=${otherTopic}`)).not.toContain(eighth);
    expect((await siteSearch(`topic:=${eighthTopic}`))[0]).toBe(eighth);

    // The indexer's `--full` run attaches the editors' sets alone: the next learn attaches the learned set again.
    await admin('PATCH', `/collections/${COLLECTION}`, { curation_sets: ['editors'] });
    await learner.learn();
    expect((await siteSearch())[0]).toBe(eighth);

    // An editors' rule for the query wins over the learned one.
    await admin('PUT', '/curation_sets/editors', { items: [{ id: 'editors-teamwork', rule: { query: QUERY, match: 'exact' }, includes: [{ id: twelfth, position: 1 }] }] });
    expect((await siteSearch()).slice(0, 2)).toEqual([twelfth, textOrder[0]]);
    await admin('PUT', '/curation_sets/editors', { items: [] });

    // Switched off by an editor: the next learn restores the text order (and moves the version again).
    await storage.reranking.switchOff(QUERY, NOW);
    const off = await learner.learn();
    expect(off.applied).toEqual([]);
    expect(off.switchedOff.map((reranking) => reranking.query)).toEqual([QUERY]);
    expect(await siteSearch()).toEqual(textOrder);
    expect(await indexVersion()).not.toBe(versionLearned);
    // On again: lifted again.
    await storage.reranking.switchOn(QUERY);
    await learner.learn();
    expect((await siteSearch())[0]).toBe(eighth);
    expect(await indexVersion()).toBe(versionLearned);
  });
});
