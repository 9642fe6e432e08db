import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACET_SEARCH_CAP } from 'contracts';
import { startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { createSearchClient } from './createSearchClient.js';

/** More distinct topic values than the facet-value search may return. */
const TOPIC_COUNT = FACET_SEARCH_CAP + 50;
const articles = Array.from({ length: TOPIC_COUNT }, (_, i) => ({
  id: `skill-${i}`,
  headline: `Skill ${i}`,
  title: `Skill article ${i}`,
  intro: 'An intro.',
  content: 'Some content.',
  image: '/content-images/skill.svg',
  topic: [`Skill ${String(i).padStart(3, '0')}`],
  date: 1_763_000_000 + i,
  url: `/articles/skill-${i}`,
  readingTime: 3,
  cta: 'Read',
}));

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer({ articles });
}, 30_000);
afterAll(async () => server?.close());

describe('createSearchClient on the embedded search server', () => {
  it(`caps facet-value searches at ${FACET_SEARCH_CAP} values`, async () => {
    const setup = createSearchClient(server.pageConfig().search);
    const client = setup.searchClient as unknown as {
      searchForFacetValues(requests: unknown[]): Promise<Array<{ facetHits: Array<{ value: string; highlighted: string }> }>>;
    };
    const [answer] = await client.searchForFacetValues([
      { indexName: setup.indexName, params: { facetName: 'topic', facetQuery: 'skill', query: '', facets: ['topic'], maxFacetHits: TOPIC_COUNT } },
    ]);
    expect(answer!.facetHits).toHaveLength(FACET_SEARCH_CAP);
    expect(answer!.facetHits[0]!.highlighted).toMatch(/^<mark>Skill<\/mark> \d{3}$|^__ais-highlight__Skill__\/ais-highlight__ \d{3}$/);
  });

  it('answers the queries of one search together; suggestion hits carry only id and title', async () => {
    const setup = createSearchClient(server.pageConfig().search);
    const search = await setup.searchClient.search([
      { indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 3, facets: ['topic'] } },
      { indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 0, facets: ['topic'] } },
    ] as never);
    expect((search as { results: unknown[] }).results).toHaveLength(2);
    const suggestions = (await setup.suggestionClient.search([{ indexName: setup.indexName, params: { query: 'skill', hitsPerPage: 2 } }] as never)) as {
      results: Array<{ hits: Array<Record<string, unknown>> }>;
    };
    expect(Object.keys(suggestions.results[0]!.hits[0]!).filter((key) => !key.startsWith('_'))).toEqual(expect.arrayContaining(['id', 'title', 'objectID']));
    expect(suggestions.results[0]!.hits[0]).not.toHaveProperty('content');
  });
});
