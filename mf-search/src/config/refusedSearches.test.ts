import { describe, expect, it } from 'vitest';
import { answerRefusedSearches, REFUSED_SEARCH_KEY, refusedSearchReason, SearchFailedError } from './refusedSearches.js';

const requests = [
  { indexName: 'articles', params: { query: 'a b c', page: 1, hitsPerPage: 20 } },
  { indexName: 'articles', params: { query: 'a b c', hitsPerPage: 0, facetName: 'topic' } },
];
const hitsAnswer = { hits: [], found: 0, page: 1, request_params: { per_page: 20, q: '*' } };

function httpError(status: number, message: string): Error {
  return Object.assign(new Error(message), { httpStatus: status });
}

describe('answerRefusedSearches: a visitor-caused 4xx is an answer, any other failure one line', () => {
  it('turns refused slots (400, 422) into empty answers marked with the reason and keeps the others', async () => {
    const answer = await answerRefusedSearches(requests, async () => ({
      results: [{ code: 400, error: 'Parameter `q` has more than 12 words.' }, { code: 422, error: 'Too large.' }],
    }));
    expect(answer.results).toEqual([
      { hits: [], found: 0, out_of: 0, page: 2, request_params: { per_page: 20, q: 'a b c' }, search_time_ms: 0, facet_counts: [], metadata: { [REFUSED_SEARCH_KEY]: 'Parameter `q` has more than 12 words.' } },
      expect.objectContaining({ facet_counts: [{ field_name: 'topic', counts: [], stats: {} }], metadata: { [REFUSED_SEARCH_KEY]: 'Too large.' } }),
    ]);
    const kept = await answerRefusedSearches(requests.slice(0, 1), async () => ({ results: [hitsAnswer] }));
    expect(kept.results).toEqual([hitsAnswer]);
  });

  it('a whole request refused for the visitor (413) answers every search as refused', async () => {
    const answer = await answerRefusedSearches(requests, async () => {
      throw httpError(413, 'Request body is too large.');
    });
    expect(answer.results.map((result) => (result.metadata as Record<string, string>)[REFUSED_SEARCH_KEY])).toEqual(['Request body is too large.', 'Request body is too large.']);
  });

  it.each([
    ['a slot with 404', async () => ({ results: [{ code: 404, error: 'Not found.' }] }), 'search failed (404): Not found.', 404],
    ['a slot with 408', async () => ({ results: [{ code: 408, error: 'Search took too long.' }] }), 'search failed (408): Search took too long.', 408],
    ['a request answered 401', async () => Promise.reject(httpError(401, 'Forbidden')), 'search failed (401): Forbidden', 401],
    ['a request answered 503', async () => Promise.reject(httpError(503, 'Busy')), 'search failed (503): Busy', 503],
    ['no answer at all', async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')), 'search failed: connect ECONNREFUSED 127.0.0.1:1', undefined],
  ])('%s rejects with a one-line SearchFailedError', async (_name, perform, message, status) => {
    const failure = await answerRefusedSearches(requests.slice(0, 1), perform as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchFailedError);
    expect((failure as SearchFailedError).message).toBe(message);
    expect((failure as SearchFailedError).status).toBe(status);
    expect((failure as Error).stack).toBe(`SearchFailedError: ${message}`);
  });

  it('refusedSearchReason reads the marker from InstantSearch results', () => {
    expect(refusedSearchReason({ userData: [{ [REFUSED_SEARCH_KEY]: 'too many words' }] })).toBe('too many words');
    expect(refusedSearchReason({ userData: [{ banner: 'x' }] })).toBeUndefined();
    expect(refusedSearchReason({})).toBeUndefined();
    expect(refusedSearchReason(null)).toBeUndefined();
  });
});
