import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

describe('ranking like Typesense 30 (MAX_SCORE text match, tie-breaking)', () => {
  let target: Target;
  const created: string[] = [];
  const collection = async (fields: unknown[], docs: unknown[], extra: Record<string, unknown> = {}) => {
    const name = uniqueName('rank');
    const res = await http(target.url, 'POST', '/collections', { key: target.adminKey, body: { name, fields, ...extra } });
    if (res.status !== 201) throw new Error(res.text);
    created.push(name);
    await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    return name;
  };
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    for (const name of created) await http(target.url, 'DELETE', `/collections/${name}`, { key: target.adminKey });
    await target.close();
  });

  const productFields = [
    { name: 'name', type: 'string' },
    { name: 'description', type: 'string' },
    { name: 'categories', type: 'string[]' },
  ];

  it('a prefix expansion of a word matched whole elsewhere does not count as one more matched field', async () => {
    const name = await collection(productFields, [
      { id: 'fast', name: 'Fast charger', description: 'A charger for phones', categories: ['Power'] },
      { id: 'wall', name: 'Wall charger', description: 'Compact', categories: ['Car Chargers'] },
    ]);
    const result = await search(target, name, { q: 'charger', query_by: 'name,description,categories' });
    expect(hitIds(result)).toEqual(['fast', 'wall']);
    expect(result.hits.map((h: { text_match_info: { fields_matched: number } }) => h.text_match_info.fields_matched)).toEqual([2, 1]);
  });

  it('fills text_match_info with the parts of the 64-bit score', async () => {
    const name = await collection(productFields, [{ id: 'fast', name: 'Fast charger', description: 'A charger for phones', categories: ['Power'] }]);
    const [hit] = (await search(target, name, { q: 'charger', query_by: 'name,description,categories' })).hits;
    const bestFieldScore = (1n << 40n) | (1n << 32n) | (255n << 24n) | (100n << 16n) | 1n;
    const score = (1n << 59n) | (bestFieldScore << 11n) | (15n << 3n) | 2n;
    expect(hit.text_match_info).toEqual({
      best_field_score: String(bestFieldScore),
      best_field_weight: 15,
      fields_matched: 2,
      num_tokens_dropped: 0,
      score: String(score),
      tokens_matched: 1,
      typo_prefix_score: 0,
    });
    expect(hit.text_match).toBe(Number(score));
  });

  it('more query words in one field beat a cheaper match spread over fields (words before cost)', async () => {
    const name = await collection(productFields, [
      // `together` is older: only the score can put it first.
      { id: 'together', name: 'Quick foxes', description: 'animals', categories: [] },
      { id: 'spread', name: 'Quick brown', description: 'fox', categories: [] },
    ]);
    const result = await search(target, name, { q: 'quick fox', query_by: 'name,description' });
    expect(hitIds(result)).toEqual(['together', 'spread']);
    expect(result.hits[0].text_match_info.typo_prefix_score).toBe(1);
  });

  it('ranks words close together above words far apart (word proximity)', async () => {
    const name = await collection([{ name: 'text', type: 'string' }], [
      { id: 'near', text: 'how a remote team works' },
      { id: 'far', text: 'remote work across many time zones needs a team' },
    ]);
    expect(hitIds(await search(target, name, { q: 'remote team', query_by: 'text' }))).toEqual(['near', 'far']);
    const far = (await search(target, name, { q: 'remote team', query_by: 'text' })).hits[1];
    const near = (await search(target, name, { q: 'remote team', query_by: 'text' })).hits[0];
    expect(BigInt(near.text_match_info.best_field_score) > BigInt(far.text_match_info.best_field_score)).toBe(true);
  });

  it('breaks text_match ties by the default sorting field, then by the newest document', async () => {
    const fields = [{ name: 'title', type: 'string' }, { name: 'points', type: 'int32' }];
    const docs = [
      { id: 'old-low', title: 'Guide to feedback', points: 1 },
      { id: 'old-high', title: 'Guide to feedback', points: 5 },
      { id: 'new-low', title: 'Guide to feedback', points: 1 },
    ];
    const sorted = await collection(fields, docs, { default_sorting_field: 'points' });
    expect(hitIds(await search(target, sorted, { q: 'feedback', query_by: 'title' }))).toEqual(['old-high', 'new-low', 'old-low']);
    const unsorted = await collection(fields, docs);
    expect(hitIds(await search(target, unsorted, { q: 'feedback', query_by: 'title' }))).toEqual(['new-low', 'old-high', 'old-low']);
  });

  it('normalises explicit weights like Typesense (heaviest 15, then one less per distinct weight)', async () => {
    const name = await collection(productFields, [{ id: 'd', name: 'Lamp', description: 'desk lamp', categories: ['Lamp'] }]);
    const result = await search(target, name, { q: 'lamp', query_by: 'name,description,categories', query_by_weights: '1,40,40' });
    // description and categories (weight 40 → 15) outrank name (1 → 14); the first heaviest field is the best field.
    expect(result.hits[0].text_match_info.best_field_weight).toBe(15);
  });
});
