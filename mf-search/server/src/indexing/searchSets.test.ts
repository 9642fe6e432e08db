import { listArticles } from '@khs/content';
import { type RunningSearchServer, startSearchServer } from '@khs/search-engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexArticles } from './indexArticles.js';
import { loadSearchSets } from './searchSets.js';

const ADMIN = 'search-sets-test-admin';

interface Answer {
  status: number;
  json: any;
}

async function http(server: RunningSearchServer, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-typesense-api-key': ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

async function search(server: RunningSearchServer, collection: string, params: Record<string, string | boolean>): Promise<{ found: number; hits: { curated?: boolean; document: { id: string } }[]; metadata?: unknown }> {
  const query = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
  return (await http(server, 'GET', `/collections/${collection}/documents/search?${query}`)).json;
}

const hitIds = (result: { hits: { document: { id: string } }[] }): string[] => result.hits.map((hit) => hit.document.id);

describe("the search team's sets in mf-search/server/search-sets", () => {
  const sets = loadSearchSets();
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
    let server: RunningSearchServer;
    const collection = 'articles_sets';
    beforeAll(async () => {
      server = await startSearchServer({ port: 0, workers: 1, adminApiKey: ADMIN, searchOnlyApiKeys: [] });
      const result = await indexArticles({ url: server.url, apiKey: ADMIN, collectionName: collection, articles: listArticles() });
      expect(result).toEqual({ imported: listArticles().length, failed: 0, refused: [], searchSets: 'applied' });
    });
    afterAll(() => server.close());

    it('attaches the sets to the new collection', async () => {
      const summary = (await http(server, 'GET', `/collections/${collection}`)).json;
      expect(summary.synonym_sets).toEqual(sets.synonymSets.map((s) => s.name));
      expect(summary.curation_sets).toEqual(sets.curationSets.map((s) => s.name));
    });

    it('pins the KPI guide with its banner metadata and finds it through a synonym', async () => {
      const pinned = await search(server, collection, { q: 'kpi', query_by: 'title,headline,intro,content' });
      expect(hitIds(pinned)[0]).toBe('kpis-that-matter');
      expect(pinned.hits[0]?.curated).toBe(true);
      expect(pinned.metadata).toMatchObject({ title: 'Measuring what matters', url: '/articles/kpis-that-matter' });
      const synonym = await search(server, collection, { q: 'telework', query_by: 'title,headline,intro,content' });
      expect(hitIds(synonym)).toContain('home-office-ergonomics');
      expect((await search(server, collection, { q: 'telework', query_by: 'title,headline,intro,content', enable_synonyms: false })).found).toBe(0);
    });

    it('re-attaches the sets to an existing collection on the next run (skipIfExists)', async () => {
      await http(server, 'PATCH', `/collections/${collection}`, { synonym_sets: [], curation_sets: [] });
      const again = await indexArticles({ url: server.url, apiKey: ADMIN, collectionName: collection, articles: listArticles(), skipIfExists: true });
      expect(again).toEqual({ imported: 0, failed: 0, refused: [], searchSets: 'applied' });
      const summary = (await http(server, 'GET', `/collections/${collection}`)).json;
      expect(summary.curation_sets).toEqual(sets.curationSets.map((s) => s.name));
    });
  });
});
