import { DEFAULT_SEARCH_INDEX_NAME, searchSortBy } from 'contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ADMIN_KEY, startSeededSearchServer, type SeededSearchServer } from '../testing/seededSearchServer.js';
import { createSearchClient } from './createSearchClient.js';

/** Two articles that match "quokkabericht" equally. */
const equal = (id: string) => ({
  id,
  headline: 'Quokkabericht',
  title: 'Quokkabericht',
  intro: 'Ein Quokkabericht.',
  content: 'Der Quokkabericht.',
  image: '/content-images/bird.svg',
  topic: ['Birds'],
  date: 1_763_000_000,
  url: `/articles/${id}`,
  readingTime: 3,
  cta: 'Read',
});

let server: SeededSearchServer;
beforeAll(async () => {
  server = await startSeededSearchServer({ articles: [equal('quokka-a'), equal('quokka-b')] });
}, 30_000);
afterAll(async () => server?.close());

/** The hits' ids as the browser's search client gets them with the sort the shell's page config gives it. */
async function browserSearch(popularity: boolean): Promise<string[]> {
  const setup = createSearchClient({ ...server.pageConfig().search, sortBy: searchSortBy(popularity) });
  const answer = (await setup.searchClient.search([{ indexName: setup.indexName, params: { query: 'quokkabericht', hitsPerPage: 10 } }] as never)) as {
    results: { hits: { objectID: string }[] }[];
  };
  return answer.results[0]!.hits.map((hit) => hit.objectID);
}

describe('the browser search client with the site\'s sort (popularity on or off)', () => {
  it('sorts a popular article above an equally matching one only with popularity on', async () => {
    const relevanceOnly = (await browserSearch(false));
    expect(relevanceOnly).toHaveLength(2);
    const lower = relevanceOnly[1]!;
    const response = await fetch(`${server.url}/collections/${DEFAULT_SEARCH_INDEX_NAME}/documents/${lower}`, {
      method: 'PATCH',
      headers: { 'x-typesense-api-key': SEEDED_ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ popularity: 12.5 }),
    });
    expect(response.status).toBe(200);
    expect((await browserSearch(true))).toEqual([lower, relevanceOnly[0]]);
    expect((await browserSearch(false))).toEqual(relevanceOnly);
  });
});
