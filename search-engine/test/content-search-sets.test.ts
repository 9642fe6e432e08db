import { listArticles } from '@khs/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexArticles, loadContentSearchSets } from '../src/index.js';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

describe("the editors' search sets in @khs/content", () => {
  const sets = loadContentSearchSets();
  const articleIds = new Set(listArticles().map((a) => a.id));

  it('are valid sets whose pinned and hidden ids are existing articles', () => {
    expect(sets.synonymSets.length).toBeGreaterThan(0);
    expect(sets.curationSets.length).toBeGreaterThan(0);
    for (const set of sets.curationSets) {
      for (const item of set.items as { includes?: { id: string }[]; excludes?: { id: string }[] }[]) {
        for (const ref of [...(item.includes ?? []), ...(item.excludes ?? [])]) expect(articleIds, `unknown article ${ref.id} in ${set.name}`).toContain(ref.id);
      }
    }
    const ids = sets.synonymSets.flatMap((s) => s.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  describe('uploaded and attached by indexArticles', () => {
    let target: Target;
    let collection: string;
    beforeAll(async () => {
      target = await startTarget();
      collection = uniqueName('articles_sets');
      const result = await indexArticles({ url: target.url, apiKey: target.adminKey, collectionName: collection, articles: listArticles() });
      expect(result).toEqual({ imported: listArticles().length, failed: 0, refused: [], searchSets: 'applied' });
    });
    afterAll(async () => {
      await http(target.url, 'DELETE', `/collections/${collection}`, { key: target.adminKey });
      await target.close();
    });

    it('attaches the sets to the new collection', async () => {
      const summary = (await http(target.url, 'GET', `/collections/${collection}`, { key: target.adminKey })).json;
      expect(summary.synonym_sets).toEqual(sets.synonymSets.map((s) => s.name));
      expect(summary.curation_sets).toEqual(sets.curationSets.map((s) => s.name));
    });

    it('pins the KPI guide with its banner metadata and finds it through a synonym', async () => {
      const pinned = await search(target, collection, { q: 'kpi', query_by: 'title,headline,intro,content' });
      expect(hitIds(pinned)[0]).toBe('kpis-that-matter');
      expect(pinned.hits[0].curated).toBe(true);
      expect(pinned.metadata).toMatchObject({ title: 'Measuring what matters', url: '/articles/kpis-that-matter' });
      const synonym = await search(target, collection, { q: 'telework', query_by: 'title,headline,intro,content' });
      expect(hitIds(synonym)).toContain('home-office-ergonomics');
      expect((await search(target, collection, { q: 'telework', query_by: 'title,headline,intro,content', enable_synonyms: false })).found).toBe(0);
    });

    it('re-attaches the sets to an existing collection on the next run (skipIfExists)', async () => {
      await http(target.url, 'PATCH', `/collections/${collection}`, { key: target.adminKey, body: { synonym_sets: [], curation_sets: [] } });
      const again = await indexArticles({ url: target.url, apiKey: target.adminKey, collectionName: collection, articles: listArticles(), skipIfExists: true });
      expect(again).toEqual({ imported: 0, failed: 0, refused: [], searchSets: 'applied' });
      const summary = (await http(target.url, 'GET', `/collections/${collection}`, { key: target.adminKey })).json;
      expect(summary.curation_sets).toEqual(sets.curationSets.map((s) => s.name));
    });
  });
});
