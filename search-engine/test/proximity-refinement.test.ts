import { generateFixtureDocuments } from './fixtures/generate-documents.js';
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../src/engine.js';
import { fixtureCollectionSchema } from './fixtures/collection-schema.js';
import { executeSearch } from '../src/search/execute-search.js';
import { parseSearchParams } from '../src/search/search-params.js';
import { unionSearch } from '../src/search/union-search.js';

// Embedded only: checks an optimisation (word proximity computed only where it can change the
// page) against the full computation (a union search computes proximity for every document).
describe('word proximity refinement gives the same page as scoring every document', () => {
  it('matches the fully scored order for two- and three-word queries, prefix expansions and queries longer than the proximity window', () => {
    const articles = generateFixtureDocuments(3000, { seed: 11 });
    const engine = new SearchEngine(undefined);
    engine.createCollection(fixtureCollectionSchema('articles'));
    const lines = articles.map(({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta }) =>
      JSON.stringify({ id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta }),
    );
    engine.importDocuments('articles', lines.join('\n'), 'upsert', false, false);
    const collection = engine.get('articles');
    if (!collection) throw new Error('no collection');
    const queries = articles.slice(0, 12).map((a, i) => a.title.toLowerCase().split(/\s+/).filter((w) => w.length > 3).slice(0, 2 + (i % 2)).join(' '));
    // Documents holding several expansions of the last word (their candidate combinations are
    // scored), and 12 to 40 words of an intro (more words than the window of 10, bounded by it).
    queries.push(...articles.slice(12, 16).map((a) => `${a.title.toLowerCase().split(/\s+/)[0]} ${a.title.toLowerCase().split(/\s+/).filter((w) => w.length > 4)[1]?.slice(0, 3) ?? 'tea'}`));
    queries.push(...articles.slice(16, 20).map((a, i) => a.intro.toLowerCase().split(/\s+/).slice(0, 12 + 9 * i).join(' ')));
    let compared = 0;
    for (const q of queries) {
      const base = { q, query_by: 'title,headline,intro,content', per_page: '5' };
      const page = executeSearch(collection, parseSearchParams(base)) as { hits: { document: { id: string } }[] };
      const full = unionSearch([{ collection, params: parseSearchParams(base) }], { page: 1, perPage: 5, offset: 0, limitHits: 1_000_000 }, true) as { hits: { document: { id: string } }[] };
      expect(page.hits.map((h) => h.document.id), q).toEqual(full.hits.map((h) => h.document.id));
      compared += page.hits.length;
    }
    expect(compared).toBeGreaterThan(30);
  });
});
