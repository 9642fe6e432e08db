import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSearchServer } from '../src/index.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { fixtureArticles } from './support/fixtures.js';
import { http } from './support/target.js';

// Embedded only: a real Typesense has its own persistence, flush timer and threads.
describe('analytics in the embedded server: persistence, periodic flush, the worker pool', () => {
  const folders: string[] = [];
  const dataFolder = (): string => {
    const folder = mkdtempSync(join(tmpdir(), 'search-analytics-'));
    folders.push(folder);
    return folder;
  };
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  const keys = { adminApiKey: 'admin', searchOnlyApiKeys: ['search'] };
  const admin = (url: string, method: string, path: string, body?: unknown) => http(url, method, path, { key: 'admin', body });
  const setUp = async (url: string) => {
    await admin(url, 'POST', '/collections', { name: 'products', fields: [{ name: 'name', type: 'string' }, { name: 'popularity', type: 'int32' }] });
    await http(url, 'POST', '/collections/products/documents/import', { key: 'admin', rawBody: ['p1', 'p2'].map((id) => JSON.stringify({ id, name: `course ${id}`, popularity: 0 })).join('\n') });
    await admin(url, 'POST', '/analytics/rules', { name: 'clicks', type: 'counter', collection: 'products', event_type: 'click', params: { counter_field: 'popularity', weight: 1 } });
    await admin(url, 'POST', '/analytics/rules', { name: 'click_log', type: 'log', collection: 'products', event_type: 'click', rule_tag: 'kept' });
  };
  const popularity = async (url: string, id: string) => (await admin(url, 'GET', `/collections/products/documents/${id}`)).json.popularity as number;

  it('keeps rules, logged events and applied counters across a restart; counters counted before a graceful stop are applied by it', async () => {
    const dataDir = dataFolder();
    const first = await startSearchServer({ port: 0, dataDir, workers: 2, ...keys });
    await setUp(first.url);
    await admin(first.url, 'POST', '/analytics/events', { name: 'clicks', event_type: 'click', data: { doc_id: 'p2', user_id: 'u1' } });
    await admin(first.url, 'POST', '/analytics/flush');
    await admin(first.url, 'POST', '/analytics/events', { name: 'click_log', event_type: 'click', data: { doc_id: 'p2', user_id: 'u1' } });
    await admin(first.url, 'POST', '/analytics/events', { name: 'clicks', event_type: 'click', data: { doc_id: 'p2', user_id: 'u1' } });
    await admin(first.url, 'PUT', '/analytics/rules/clicks', { params: { weight: 3 } });
    await first.close();

    const second = await startSearchServer({ port: 0, dataDir, workers: 2, ...keys });
    try {
      expect((await admin(second.url, 'GET', '/analytics/rules')).json).toEqual([
        { name: 'clicks', type: 'counter', collection: 'products', event_type: 'click', rule_tag: '', params: { counter_field: 'popularity', destination_collection: 'products', weight: 3 } },
        { name: 'click_log', type: 'log', collection: 'products', event_type: 'click', rule_tag: 'kept' },
      ]);
      expect(await popularity(second.url, 'p2')).toBe(2);
      expect((await admin(second.url, 'GET', '/analytics/events?user_id=u1&name=click_log&n=10')).json.events).toMatchObject([{ name: 'click_log', doc_id: 'p2', user_id: 'u1' }]);
      await admin(second.url, 'POST', '/analytics/events', { name: 'clicks', event_type: 'click', data: { doc_id: 'p2', user_id: 'u1' } });
      await admin(second.url, 'POST', '/analytics/flush');
      expect(await popularity(second.url, 'p2')).toBe(5);
      expect((await admin(second.url, 'DELETE', '/analytics/rules/click_log')).status).toBe(200);
    } finally {
      await second.close();
    }
    const third = await startSearchServer({ port: 0, dataDir, workers: 1, ...keys });
    try {
      expect((await admin(third.url, 'GET', '/analytics/rules')).json.map((r: { name: string }) => r.name)).toEqual(['clicks']);
    } finally {
      await third.close();
    }
  });

  it('starts with an unreadable rules file (logged, not fatal) and rewrites it at the next change', async () => {
    const dataDir = dataFolder();
    mkdirSync(join(dataDir, 'analytics'), { recursive: true });
    writeFileSync(join(dataDir, 'analytics', 'rules.json'), '[{"name": "torn');
    const logs: string[] = [];
    const server = await startSearchServer({ port: 0, dataDir, workers: 1, log: (line) => logs.push(line), ...keys });
    try {
      expect((await admin(server.url, 'GET', '/analytics/rules')).json).toEqual([]);
      expect(logs.some((line) => line.startsWith('skipped the unreadable analytics rules file'))).toBe(true);
      await setUp(server.url);
      expect((await admin(server.url, 'GET', '/analytics/rules')).json).toHaveLength(2);
    } finally {
      await server.close();
    }
    const again = await startSearchServer({ port: 0, dataDir, workers: 1, ...keys });
    try {
      expect((await admin(again.url, 'GET', '/analytics/rules')).json.map((r: { name: string }) => r.name)).toEqual(['clicks', 'click_log']);
    } finally {
      await again.close();
    }
  });

  it('flushes on its own every analyticsFlushIntervalMs', async () => {
    const server = await startSearchServer({ port: 0, dataDir: dataFolder(), workers: 1, analyticsFlushIntervalMs: 100, ...keys });
    try {
      await setUp(server.url);
      await admin(server.url, 'POST', '/analytics/events', { name: 'clicks', event_type: 'click', data: { doc_ids: ['p1', 'p1'], user_id: 'u1' } });
      let value = 0;
      for (let attempt = 0; attempt < 100 && value === 0; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        value = await popularity(server.url, 'p1');
      }
      expect(value).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('counts searches answered by reader workers: concurrent users all reach the writer', async () => {
    const server = await startSearchServer({ port: 0, dataDir: dataFolder(), workers: 2, ...keys });
    try {
      await admin(server.url, 'POST', '/collections', fixtureCollectionSchema('articles'));
      await http(server.url, 'POST', '/collections/articles/documents/import', { key: 'admin', rawBody: fixtureArticles.map((a) => JSON.stringify(a)).join('\n') });
      await admin(server.url, 'POST', '/collections', { name: 'queries', fields: [{ name: 'q', type: 'string' }, { name: 'count', type: 'int32' }] });
      await admin(server.url, 'POST', '/analytics/rules', { name: 'popular', type: 'popular_queries', collection: 'articles', event_type: 'search', params: { destination_collection: 'queries', limit: 10 } });
      const users = Array.from({ length: 12 }, (_, i) => `user-${i}`);
      await Promise.all(
        users.map((user) =>
          http(server.url, 'POST', '/multi_search', { key: 'search', headers: { 'x-typesense-user-id': user }, body: { searches: [{ collection: 'articles', q: 'leadership', query_by: 'title' }] } }),
        ),
      );
      expect(server.stats().workers).toBe(2);
      await admin(server.url, 'POST', '/analytics/flush');
      const found = (await http(server.url, 'GET', '/collections/queries/documents/search?q=*', { key: 'admin' })).json;
      expect(found.hits.map((h: { document: { q: string; count: number } }) => [h.document.q, h.document.count])).toEqual([['leadership', 12]]);
    } finally {
      await server.close();
    }
  });
});
