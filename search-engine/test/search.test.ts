import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, multiSearch, search, type Target, startTarget, uniqueName } from './support/target.js';

const TEXT_FIELDS = 'title,headline,intro,content';

describe('multi_search: query, typos, prefix, ranking and result shape', () => {
  let target: Target;
  let articles: string;
  let words: string;
  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'search');
    words = uniqueName('words');
    await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name: words, fields: [{ name: 't', type: 'string' }] } });
    const docs = [
      { id: 'w0', t: 'app store' },
      { id: 'w1', t: 'apple pie' },
      { id: 'w2', t: 'apply now' },
      { id: 'w3', t: 'maple syrup' },
    ];
    await http(target.url, 'POST', `/collections/${words}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
  });
  afterAll(async () => {
    for (const name of [articles, words]) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  it('q=* returns every document, newest first by the default sorting field, with the full envelope', async () => {
    const result = await search(target, articles, { q: '*' });
    expect(result.found).toBe(5);
    expect(result.out_of).toBe(5);
    expect(result.page).toBe(1);
    expect(result.search_cutoff).toBe(false);
    expect(typeof result.search_time_ms).toBe('number');
    expect(result.facet_counts).toEqual([]);
    expect(result.request_params).toEqual({ collection_name: articles, first_q: '*', per_page: 10, q: '*' });
    expect(hitIds(result)).toEqual(['a4', 'a2', 'a1', 'a3', 'a5']);
    for (const hit of result.hits) {
      expect(hit.highlight).toEqual({});
      expect(hit.highlights).toEqual([]);
      expect(hit).not.toHaveProperty('text_match');
    }
    expect(result.hits[0].document).toMatchObject({ id: 'a4', title: 'Résumé tips and café breaks', topic: ['Wellbeing', 'Career'], date: 1_720_000_000, readingTime: 3 });
  });

  it('folds case and diacritics and highlights the original text', async () => {
    const result = await search(target, articles, { q: 'CAFE resume', query_by: 'title' });
    expect(hitIds(result)).toEqual(['a4']);
    const hit = result.hits[0];
    expect(hit.highlight.title).toEqual({ matched_tokens: ['Résumé', 'café'], snippet: '<mark>Résumé</mark> tips and <mark>café</mark> breaks' });
    expect(hit.highlights).toEqual([{ field: 'title', matched_tokens: ['Résumé', 'café'], snippet: '<mark>Résumé</mark> tips and <mark>café</mark> breaks' }]);
    expect(typeof hit.text_match).toBe('number');
    expect(hit.text_match_info).toMatchObject({ fields_matched: 1, tokens_matched: 2, num_tokens_dropped: 0 });
  });

  it('matches the last word as a prefix, wrapping only the typed part; prefix=false turns it off', async () => {
    const result = await search(target, articles, { q: 'negot', query_by: 'title' });
    expect(hitIds(result)).toEqual(['a3']);
    expect(result.hits[0].highlight.title).toEqual({ matched_tokens: ['Negot'], snippet: '<mark>Negot</mark>iation basics for beginners' });
    const exact = await search(target, articles, { q: 'negot', query_by: 'title', prefix: false });
    expect(exact.found).toBe(0);
  });

  it('ranks a whole-word match above prefix expansions, then newest first', async () => {
    expect(hitIds(await search(target, words, { q: 'app', query_by: 't' }))).toEqual(['w0', 'w2', 'w1']);
  });

  it('ranks a field that is exactly the query first unless prioritize_exact_match=false', async () => {
    const name = uniqueName('exact');
    await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields: [{ name: 't', type: 'string' }] } });
    const docs = [
      { id: 'e1', t: 'Apple Pie' },
      { id: 'e2', t: 'apple pie recipe' },
    ];
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    try {
      expect(hitIds(await search(target, name, { q: 'apple pie', query_by: 't' }))).toEqual(['e1', 'e2']);
      expect(hitIds(await search(target, name, { q: 'apple pie', query_by: 't', prioritize_exact_match: false }))).toEqual(['e2', 'e1']);
    } finally {
      await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    }
  });

  it('tolerates typos within the length budget: 1 typo from 4 letters, 2 from 7, transpositions count once', async () => {
    expect(hitIds(await search(target, articles, { q: 'leadrship', query_by: 'title' }))).toEqual(['a1']);
    expect(hitIds(await search(target, articles, { q: 'feedbakc', query_by: 'title' }))).toEqual(['a2']);
    expect(hitIds(await search(target, articles, { q: 'negotaiton', query_by: 'title' }))).toEqual(['a3']);
    expect(hitIds(await search(target, articles, { q: 'agle', query_by: 'title', prefix: false }))).toEqual(['a5']);
    // 6 letters allow 1 typo only: "brakes" is 2 edits from "breaks".
    expect((await search(target, articles, { q: 'brakes', query_by: 'title' })).found).toBe(0);
    // 3 letters allow none.
    expect((await search(target, articles, { q: 'tps', query_by: 'title' })).found).toBe(0);
  });

  it('num_typos caps the typos per word', async () => {
    expect((await search(target, articles, { q: 'leadrship', query_by: 'title', num_typos: 0 })).found).toBe(0);
    expect((await search(target, articles, { q: 'negotaiton', query_by: 'title', num_typos: 1 })).found).toBe(0);
    expect((await search(target, articles, { q: 'negotaiton', query_by: 'title', num_typos: 2 })).found).toBe(1);
  });

  it('searches typo variants only while fewer than typo_tokens_threshold results exist', async () => {
    const base = { query_by: 't', prefix: false };
    expect(hitIds(await search(target, words, { ...base, q: 'apple' }))).toEqual(['w1']);
    expect(hitIds(await search(target, words, { ...base, q: 'apple', typo_tokens_threshold: 2 })).sort()).toEqual(['w1', 'w2']);
    expect(hitIds(await search(target, words, { ...base, q: 'appel' }))).toEqual(['w1']);
    expect((await search(target, words, { ...base, q: 'appel', typo_tokens_threshold: 0 })).found).toBe(0);
  });

  it('drops words from the right while fewer than drop_tokens_threshold results exist', async () => {
    const dropped = await search(target, words, { q: 'apple zebra', query_by: 't', prefix: false });
    expect(hitIds(dropped)).toEqual(['w1']);
    expect(dropped.hits[0].text_match_info.num_tokens_dropped).toBe(1);
    expect((await search(target, words, { q: 'apple zebra', query_by: 't', prefix: false, drop_tokens_threshold: 0 })).found).toBe(0);
  });

  it('requires every word to match (AND) across the searched fields', async () => {
    expect(hitIds(await search(target, articles, { q: 'remote trust', query_by: TEXT_FIELDS }))).toEqual(['a1']);
    expect(hitIds(await search(target, articles, { q: 'feedback kind', query_by: TEXT_FIELDS }))).toEqual(['a2']);
  });

  it('matches "quoted phrases" only where the words stand next to each other', async () => {
    expect(hitIds(await search(target, articles, { q: '"remote teams"', query_by: 'title,content' }))).toEqual(['a1']);
    expect((await search(target, articles, { q: '"teams remote"', query_by: 'title,content' })).found).toBe(0);
    expect(hitIds(await search(target, articles, { q: '"clear goals" feedback', query_by: 'intro' }))).toEqual(['a1']);
  });

  it('excludes documents containing a word prefixed with -', async () => {
    expect(hitIds(await search(target, articles, { q: 'feedback -regular', query_by: 'intro,content' }))).toEqual(['a2']);
  });

  it('ranks matches in a higher-weighted field first and orders hits by text_match', async () => {
    const result = await search(target, articles, { q: 'feedback', query_by: 'title,intro' });
    expect(hitIds(result)).toEqual(['a2', 'a1']);
    // text_match is a 64-bit integer: compare the exact value (a JSON number loses the low bits in JS).
    const scores = result.hits.map((h: { text_match_info: { score: string } }) => BigInt(h.text_match_info.score));
    expect(scores[0] > scores[1]).toBe(true);
    const weighted = await search(target, articles, { q: 'feedback', query_by: 'title,intro', query_by_weights: '1,10' });
    expect(weighted.found).toBe(2);
    const mismatch = await search(target, articles, { q: 'feedback', query_by: 'title,intro', query_by_weights: '1' });
    expect(mismatch.code).toBe(400);
  });

  it('snippets long fields around the match with highlight_affix_num_tokens words each side', async () => {
    const result = await search(target, articles, { q: 'asynchronous', query_by: 'content' });
    expect(hitIds(result)).toEqual(['a1']);
    expect(result.hits[0].highlight.content).toEqual({
      matched_tokens: ['asynchronous'],
      snippet: 'habits for weekly check-ins, <mark>asynchronous</mark> updates and honest one-to-one',
    });
    const narrow = await search(target, articles, { q: 'asynchronous', query_by: 'content', highlight_affix_num_tokens: 1 });
    expect(narrow.hits[0].highlight.content.snippet).toBe('check-ins, <mark>asynchronous</mark> updates');
    const whole = await search(target, articles, { q: 'asynchronous', query_by: 'content', snippet_threshold: 100 });
    expect(whole.hits[0].highlight.content.snippet.startsWith('Leading a remote team')).toBe(true);
    expect(whole.hits[0].highlight.content.snippet).toContain('<mark>asynchronous</mark>');
  });

  it('adds the fully highlighted value for highlight_full_fields and honours custom tags', async () => {
    const result = await search(target, articles, { q: 'asynchronous', query_by: 'content', highlight_full_fields: 'content', highlight_start_tag: '<b>', highlight_end_tag: '</b>' });
    const content = result.hits[0].highlight.content;
    expect(content.value).toContain('check-ins, <b>asynchronous</b> updates');
    expect(content.value.startsWith('Leading a remote team')).toBe(true);
    expect(content.snippet).toBe('habits for weekly check-ins, <b>asynchronous</b> updates and honest one-to-one');
    expect(result.hits[0].highlights[0]).toMatchObject({ field: 'content', value: content.value });
  });

  it('highlights string[] fields element by element', async () => {
    const result = await search(target, articles, { q: 'wellbeing', query_by: 'topic' });
    expect(hitIds(result)).toEqual(['a4']);
    expect(result.hits[0].highlight.topic).toEqual([
      { matched_tokens: ['Wellbeing'], snippet: '<mark>Wellbeing</mark>' },
      { matched_tokens: [], snippet: 'Career' },
    ]);
    expect(result.hits[0].highlights).toEqual([{ field: 'topic', indices: [0], matched_tokens: [['Wellbeing']], snippets: ['<mark>Wellbeing</mark>'] }]);
  });

  it('paginates with page/per_page; page 0 is page 1; per_page 0 gives no hits', async () => {
    expect(hitIds(await search(target, articles, { q: '*', per_page: 2, page: 2 }))).toEqual(['a1', 'a3']);
    expect(hitIds(await search(target, articles, { q: '*', per_page: 2, page: 3 }))).toEqual(['a5']);
    expect(hitIds(await search(target, articles, { q: '*', per_page: 2, page: 0 }))).toEqual(['a4', 'a2']);
    const none = await search(target, articles, { q: '*', per_page: 0 });
    expect(none.hits).toEqual([]);
    expect(none.found).toBe(5);
    expect(none.request_params.per_page).toBe(0);
  });

  it('rejects per_page over 250 with 422 in the search slot', async () => {
    expect(await search(target, articles, { q: '*', per_page: 251 })).toEqual({ code: 422, error: 'Only upto 250 hits can be fetched per page.' });
    expect((await search(target, articles, { q: '*', per_page: 250 })).found).toBe(5);
  });

  it('answers parameter errors per search with Typesense codes and messages', async () => {
    const results = await multiSearch(target, [
      { collection: articles, query_by: 'title' },
      { collection: articles, q: 'x' },
      { collection: articles, q: 'x', query_by: 'nope' },
      { collection: articles, q: 'x', query_by: 'readingTime' },
      { collection: 'no_such_collection_x', q: '*' },
      { collection: articles, q: '*', page: -1 },
      { collection: articles, q: '*' },
    ]);
    expect(results[0]).toEqual({ code: 400, error: 'Parameter `q` is required.' });
    expect(results[1]).toEqual({ code: 400, error: 'No search fields specified for the query.' });
    expect(results[2]).toEqual({ code: 404, error: 'Could not find a field named `nope` in the schema.' });
    expect(results[3]).toEqual({ code: 400, error: 'Field `readingTime` should be a string or a string array.' });
    expect(results[4]).toEqual({ code: 404, error: 'Collection not found' });
    expect(results[5]).toEqual({ code: 400, error: 'Parameter `page` must be an unsigned integer.' });
    expect(results[6].found).toBe(5);
  });

  it('answers request-level multi_search errors with HTTP 400', async () => {
    const noSearches = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, body: { foo: 1 } });
    expect(noSearches.status).toBe(400);
    expect(noSearches.json).toEqual({ message: 'Missing `searches` array.' });
    const malformed = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, body: { searches: [{ collection: articles, q: ['a'] }] } });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toEqual({ message: 'One or more search parameters are malformed.' });
    const tooMany = await http(target.url, 'POST', '/multi_search', { key: target.searchKey, body: { searches: Array.from({ length: 51 }, () => ({ collection: articles, q: '*' })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({ message: 'Number of multi searches exceeds `limit_multi_searches` parameter.' });
  });

  it('applies query-string parameters to every search, ahead of the body', async () => {
    const res = await http(target.url, 'POST', `/multi_search?query_by=title&per_page=1`, {
      key: target.searchKey,
      body: { searches: [{ collection: articles, q: 'feedback', per_page: 5 }, { collection: articles, q: '*' }] },
    });
    expect(res.status).toBe(200);
    expect(hitIds(res.json.results[0])).toEqual(['a2']);
    expect(res.json.results[0].request_params.per_page).toBe(1);
    expect(res.json.results[1].hits).toHaveLength(1);
  });

  it('serves GET /collections/:name/documents/search with the same semantics', async () => {
    const res = await http(target.url, 'GET', `/collections/${articles}/documents/search?q=leadrship&query_by=title`, { key: target.searchKey });
    expect(res.status).toBe(200);
    expect(hitIds(res.json)).toEqual(['a1']);
    const missing = await http(target.url, 'GET', `/collections/${articles}/documents/search?query_by=title`, { key: target.searchKey });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ message: 'Parameter `q` is required.' });
  });
});
