import TypesenseInstantSearchAdapter from 'typesense-instantsearch-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, http, type Target, startTarget } from './support/target.js';

/** The search client surface InstantSearch calls, typed loosely so raw helper requests can be sent. */
interface InstantSearchClient {
  search(requests: unknown[]): Promise<{ results: any[] }>;
  searchForFacetValues(requests: unknown[]): Promise<any[]>;
}

/** What InstantSearch (algoliasearch-helper) sends for a search with a refined disjunctive facet. */
function helperRequests(indexName: string, query: string) {
  const common = { query, highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__', maxValuesPerFacet: 10, page: 0 };
  return [
    { indexName, params: { ...common, facets: ['topic'], facetFilters: [['topic:Leadership']], hitsPerPage: 2 } },
    { indexName, params: { ...common, facets: 'topic', hitsPerPage: 0, analytics: false, clickAnalytics: false } },
  ];
}

describe('typesense-instantsearch-adapter against the server', () => {
  let target: Target;
  let articles: string;
  let client: InstantSearchClient;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'instantsearch');
    const url = new URL(target.url);
    const adapter = new TypesenseInstantSearchAdapter({
      server: {
        apiKey: target.searchKey,
        nodes: [{ host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), protocol: url.protocol.replace(':', '') }],
        cacheSearchResultsForSeconds: 0,
      },
      additionalSearchParameters: { query_by: 'title,headline,intro,content' },
    });
    client = adapter.searchClient as unknown as InstantSearchClient;
  });
  afterAll(async () => {
    await http(target.url, 'DELETE', `/collections/${articles}`, { key: target.adminKey });
    await target.close();
  });

  it('returns hits, highlights, facets and paging as InstantSearch expects, with refined facets', async () => {
    const { results } = await client.search(helperRequests(articles, 'teams'));
    const [main, disjunctive] = results;
    expect(main.nbHits).toBe(1);
    expect(main.page).toBe(0);
    expect(main.hitsPerPage).toBe(2);
    expect(main.nbPages).toBe(1);
    expect(main.query).toBe('teams');
    expect(typeof main.processingTimeMS).toBe('number');
    const hit = main.hits[0];
    expect(hit.objectID).toBe('a1');
    expect(hit.title).toBe('Leadership in remote teams');
    expect(hit._highlightResult.title.value).toBe('Leadership in remote __ais-highlight__teams__/ais-highlight__');
    expect(hit._highlightResult.title.matchLevel).toBe('full');
    expect(hit._highlightResult.title.matchedWords).toEqual(['teams']);
    expect(hit._snippetResult.title.value).toBe('Leadership in remote __ais-highlight__teams__/ais-highlight__');
    expect(hit._highlightResult.topic).toEqual([
      { value: 'Leadership', matchLevel: 'none', matchedWords: [] },
      { value: 'Remote Work', matchLevel: 'none', matchedWords: [] },
    ]);
    expect(main.facets).toEqual({ topic: { Leadership: 1, 'Remote Work': 1 } });
    // The disjunctive query counts topic values without the topic refinement.
    expect(disjunctive.hits).toEqual([]);
    expect(disjunctive.nbHits).toBe(2);
    expect(disjunctive.facets).toEqual({ topic: { 'Remote Work': 2, Leadership: 1, 'Project Management': 1 } });
  });

  it('searches facet values (searchable RefinementList) with highlighted values', async () => {
    const response = await client.searchForFacetValues([
      { indexName: articles, params: { facetName: 'topic', facetQuery: 'rem', query: '', facets: ['topic'], maxFacetHits: 10, maxValuesPerFacet: 10, page: 0, highlightPreTag: '__ais-highlight__', highlightPostTag: '__/ais-highlight__' } },
    ]);
    expect(response).toHaveLength(1);
    expect(response[0].facetHits).toEqual([{ value: 'Remote Work', highlighted: '__ais-highlight__Rem__/ais-highlight__ote Work', count: 2 }]);
    expect(typeof response[0].processingTimeMS).toBe('number');
  });

  it('surfaces a per-search error as a thrown error, like against Typesense', async () => {
    const originalError = console.error;
    console.error = () => {};
    try {
      await expect(client.search([{ indexName: 'missing_collection_x', params: { query: 'x', page: 0 } }])).rejects.toThrow('404 - Collection not found');
    } finally {
      console.error = originalError;
    }
  });
});
