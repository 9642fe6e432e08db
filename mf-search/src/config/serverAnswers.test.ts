import { describe, expect, it, vi } from 'vitest';
import type { SearchClient } from 'instantsearch.js';
import type { InstantSearchServerState } from 'react-instantsearch';
import { SEARCH_CACHE_SECONDS } from 'contracts';
import { withServerAnswers } from './serverAnswers.js';

const params = { query: 'team', page: 0, hitsPerPage: 20, facets: ['topic'], maxValuesPerFacet: 20 };
const serverAnswer = { hits: [{ objectID: 'a' }], nbHits: 1, page: 0, hitsPerPage: 20, query: 'team' };
const initialResults = {
  articles: { state: { index: 'articles', query: 'team' }, results: [serverAnswer], requestParams: [params] },
} as unknown as InstantSearchServerState['initialResults'];

function countedClient() {
  const search = vi.fn(async () => ({ results: [{ hits: [{ objectID: 'fresh' }] }] }));
  return { search, client: { search } as unknown as SearchClient };
}

describe("the list's client hydrated with the server's answers", () => {
  it("answers the server's own requests with its answer (a copy each time), also with the insights middleware's click-analytics parameters", async () => {
    const { search, client } = countedClient();
    const hydrated = withServerAnswers(client, initialResults);
    const first = (await hydrated.search([{ indexName: 'articles', params }])) as unknown as { results: unknown[] };
    const again = (await hydrated.search([{ indexName: 'articles', params: { ...params, clickAnalytics: true, userToken: 'anonymous-1' } }])) as unknown as { results: unknown[] };
    expect(first.results).toEqual([serverAnswer]);
    expect(again.results).toEqual([serverAnswer]);
    expect(first.results[0]).not.toBe(again.results[0]);
    expect(search).not.toHaveBeenCalled();
  });

  it('sends any other search: another query, page or index', async () => {
    const { search, client } = countedClient();
    const hydrated = withServerAnswers(client, initialResults);
    await hydrated.search([{ indexName: 'articles', params: { ...params, query: 'lead' } }]);
    await hydrated.search([{ indexName: 'articles', params: { ...params, page: 1 } }]);
    await hydrated.search([{ indexName: 'other', params }]);
    expect(search).toHaveBeenCalledTimes(3);
  });

  it("sends the server's requests again once its answer is older than the client's cache lifetime", async () => {
    const { search, client } = countedClient();
    let time = 1_000;
    const hydrated = withServerAnswers(client, initialResults, () => time);
    time += SEARCH_CACHE_SECONDS * 1000 + 1;
    await hydrated.search([{ indexName: 'articles', params }]);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('without the requests the server sent (an older render) the client is unchanged', () => {
    const { client } = countedClient();
    const older = { articles: { state: { index: 'articles' }, results: [serverAnswer] } } as unknown as InstantSearchServerState['initialResults'];
    expect(withServerAnswers(client, older)).toBe(client);
    expect(withServerAnswers(client, undefined)).toBe(client);
  });
});
