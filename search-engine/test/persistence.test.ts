import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSearchServer } from '../src/index.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { fixtureArticles } from './support/fixtures.js';
import { hitIds, http } from './support/target.js';

// Embedded only: a real Typesense has its own persistence.
describe('persistence in the data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'search-engine-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = { adminApiKey: 'admin', searchOnlyApiKeys: ['search'] };

  const searchAll = async (url: string, params: Record<string, unknown>) => {
    const res = await http(url, 'POST', '/multi_search', { key: 'search', body: { searches: [{ collection: 'articles', ...params }] } });
    return res.json.results[0];
  };

  it('keeps collections, documents, updates and deletions across restarts without re-importing', async () => {
    const first = await startSearchServer({ port: 0, dataDir, ...keys });
    await http(first.url, 'POST', '/collections', { key: 'admin', body: fixtureCollectionSchema('articles') });
    await http(first.url, 'POST', '/collections', { key: 'admin', body: { name: 'dropped', fields: [{ name: 'a', type: 'string' }] } });
    const jsonl = fixtureArticles.map((a) => JSON.stringify(a)).join('\n');
    await http(first.url, 'POST', '/collections/articles/documents/import', { key: 'admin', rawBody: jsonl });
    await http(first.url, 'POST', '/collections/articles/documents/import?action=update', { key: 'admin', rawBody: JSON.stringify({ id: 'a3', title: 'Negotiation masterclass' }) });
    await http(first.url, 'DELETE', '/collections/articles/documents/a5', { key: 'admin' });
    await http(first.url, 'DELETE', '/collections/dropped', { key: 'admin' });
    await first.close();

    // Second start: snapshot + log replayed.
    const second = await startSearchServer({ port: 0, dataDir, ...keys });
    const summary = await http(second.url, 'GET', '/collections/articles', { key: 'admin' });
    expect(summary.json.num_documents).toBe(4);
    expect(summary.json.fields.map((f: { name: string }) => f.name)).toContain('topic');
    expect((await http(second.url, 'GET', '/collections/dropped', { key: 'admin' })).status).toBe(404);
    expect(hitIds(await searchAll(second.url, { q: 'masterclass', query_by: 'title' }))).toEqual(['a3']);
    expect((await searchAll(second.url, { q: 'agile', query_by: 'title' })).found).toBe(0);
    expect(hitIds(await searchAll(second.url, { q: 'leadrship', query_by: 'title' }))).toEqual(['a1']);
    await http(second.url, 'POST', '/collections/articles/documents/import?action=upsert', { key: 'admin', rawBody: JSON.stringify({ ...fixtureArticles[4], title: 'Agile again' }) });
    await second.close();

    const third = await startSearchServer({ port: 0, dataDir, ...keys });
    expect(hitIds(await searchAll(third.url, { q: 'agile', query_by: 'title' }))).toEqual(['a5']);
    const facets = await searchAll(third.url, { q: '*', facet_by: 'topic', sort_by: 'date:asc' });
    expect(facets.found).toBe(5);
    expect(hitIds(facets)[0]).toBe('a5');
    await third.close();
  });

  it('keeps hostile collection names inside their own folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-engine-names-'));
    try {
      const server = await startSearchServer({ port: 0, dataDir: dir, ...keys });
      for (const name of ['..', '.', '../x', 'a/b']) {
        const created = await http(server.url, 'POST', '/collections', { key: 'admin', body: { name, fields: [{ name: 't', type: 'string' }] } });
        expect(created.status, name).toBe(201);
      }
      // "." and ".." cannot be addressed in a URL path (clients normalise them away); the others can.
      for (const name of ['../x', 'a/b']) {
        const dropped = await http(server.url, 'DELETE', `/collections/${encodeURIComponent(name)}`, { key: 'admin' });
        expect(dropped.status, name).toBe(200);
      }
      await server.close();
      const again = await startSearchServer({ port: 0, dataDir: dir, ...keys });
      expect((await http(again.url, 'GET', '/health')).status).toBe(200);
      const names = ((await http(again.url, 'GET', '/collections', { key: 'admin' })).json as { name: string }[]).map((c) => c.name).sort();
      expect(names).toEqual(['.', '..']);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replays the change log when the previous process never folded it (crash)', async () => {
    const crashDir = mkdtempSync(join(tmpdir(), 'search-engine-crash-'));
    try {
      const running = await startSearchServer({ port: 0, dataDir: crashDir, ...keys });
      await http(running.url, 'POST', '/collections', { key: 'admin', body: fixtureCollectionSchema('articles') });
      await http(running.url, 'POST', '/collections/articles/documents/import', { key: 'admin', rawBody: fixtureArticles.map((a) => JSON.stringify(a)).join('\n') });
      await http(running.url, 'DELETE', '/collections/articles/documents/a2', { key: 'admin' });
      // A second process starts from the same folder while the first never closed: only the log has the data.
      const recovered = await startSearchServer({ port: 0, dataDir: crashDir, ...keys });
      const result = await searchAll(recovered.url, { q: '*', facet_by: 'topic' });
      expect(result.found).toBe(4);
      expect(hitIds(result)).not.toContain('a2');
      await recovered.close();
      await running.close();
    } finally {
      rmSync(crashDir, { recursive: true, force: true });
    }
  });
});
