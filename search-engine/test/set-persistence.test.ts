import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSearchServer } from '../src/index.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { fixtureArticles } from './support/fixtures.js';
import { hitIds, http } from './support/target.js';

// Embedded only: a real Typesense has its own persistence.
describe('synonym and curation sets persist in the data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'search-sets-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const keys = { adminApiKey: 'admin', searchOnlyApiKeys: ['search'] };
  const searchArticles = async (url: string, params: Record<string, unknown>) =>
    (await http(url, 'POST', '/multi_search', { key: 'search', body: { searches: [{ collection: 'articles', ...params }] } })).json.results[0];

  it('keeps sets, their items and the collection attachment across restarts', async () => {
    const first = await startSearchServer({ port: 0, dataDir, ...keys });
    await http(first.url, 'PUT', '/synonym_sets/words', { key: 'admin', body: { items: [{ id: 'cv', synonyms: ['cv', 'résumé'] }] } });
    await http(first.url, 'PUT', '/curation_sets/pins', { key: 'admin', body: { items: [{ id: 'p', rule: { query: 'cv', match: 'exact' }, includes: [{ id: 'a1', position: 1 }], metadata: { note: 'pinned' } }] } });
    await http(first.url, 'PUT', '/synonym_sets/dropped', { key: 'admin', body: { items: [{ id: 'x', synonyms: ['a', 'b'] }] } });
    await http(first.url, 'DELETE', '/synonym_sets/dropped', { key: 'admin' });
    await http(first.url, 'POST', '/collections', { key: 'admin', body: fixtureCollectionSchema('articles') });
    await http(first.url, 'POST', '/collections/articles/documents/import', { key: 'admin', rawBody: fixtureArticles.map((a) => JSON.stringify(a)).join('\n') });
    await http(first.url, 'PATCH', '/collections/articles', { key: 'admin', body: { synonym_sets: ['words'], curation_sets: ['pins'] } });
    await first.close();

    const second = await startSearchServer({ port: 0, dataDir, ...keys });
    try {
      expect((await http(second.url, 'GET', '/synonym_sets/words', { key: 'admin' })).json).toEqual({ items: [{ id: 'cv', root: '', synonyms: ['cv', 'résumé'] }], name: 'words' });
      expect((await http(second.url, 'GET', '/synonym_sets/dropped', { key: 'admin' })).status).toBe(404);
      const summary = (await http(second.url, 'GET', '/collections/articles', { key: 'admin' })).json;
      expect(summary.synonym_sets).toEqual(['words']);
      expect(summary.curation_sets).toEqual(['pins']);
      const result = await searchArticles(second.url, { q: 'cv', query_by: 'title' });
      expect(hitIds(result)).toEqual(['a1', 'a4']);
      expect(result.hits[0].curated).toBe(true);
      expect(result.metadata).toEqual({ note: 'pinned' });
    } finally {
      await second.close();
    }
  });
});
