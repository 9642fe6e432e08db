import { describe, expect, it } from 'vitest';
import { canonicalJson, createEarlyAnswers, RECORDED_SEARCH_KEY, recordedSearches, searchesForQuery } from './earlySearch.js';

describe('early search of the bound list', () => {
  it('canonical JSON ignores key order and undefined values', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, e: 'x' }] })).toBe(canonicalJson({ a: [{ e: 'x', d: 2 }], b: 1 }));
    expect(canonicalJson({ q: 'a' })).not.toBe(canonicalJson({ q: 'b' }));
  });

  it('reads the searches the server recorded in its answers, only for page 1 and only when every answer has one', () => {
    const main = { q: 'team', page: 1, per_page: 20, facet_by: 'topics' };
    const facet = { q: 'team', page: 1, per_page: 0, facet_by: 'topics' };
    const answers = [{ userData: [{ [RECORDED_SEARCH_KEY]: main }] }, { userData: [{ other: 1 }, { [RECORDED_SEARCH_KEY]: facet }] }];
    expect(recordedSearches(answers)).toEqual([main, facet]);
    expect(recordedSearches([{ userData: [{ [RECORDED_SEARCH_KEY]: main }] }, {}])).toBeNull();
    expect(recordedSearches([{ userData: [{ [RECORDED_SEARCH_KEY]: { ...main, page: 2 } }] }])).toBeNull();
    expect(recordedSearches([])).toBeNull();
    expect(recordedSearches(undefined)).toBeNull();
  });

  it('swaps the typed query into every search; an empty one is "*" as the adapter sends it', () => {
    const template = [{ q: 'team', page: 1 }, { q: 'team', per_page: 0 }];
    expect(searchesForQuery(template, 'leadership')).toEqual([{ q: 'leadership', page: 1 }, { q: 'leadership', per_page: 0 }]);
    expect(searchesForQuery(template, '')[0]!.q).toBe('*');
    expect(template[0]!.q).toBe('team');
  });

  it('hands an early answer once, for exactly the same searches', async () => {
    const answers = createEarlyAnswers();
    const answer = Promise.resolve({ results: [] });
    answers.put([{ q: 'a', page: 1 }], answer);
    expect(answers.take([{ q: 'b', page: 1 }])).toBeUndefined();
    expect(answers.take([{ page: 1, q: 'a' }])).toBe(answer);
    expect(answers.take([{ q: 'a', page: 1 }])).toBeUndefined();
    expect(answers.sent).toBe(1);
  });
});
