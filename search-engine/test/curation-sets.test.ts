import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

const TEXT = 'title,intro,content';

describe('curation sets (Typesense 30): API, attachment and effect on searches', () => {
  let target: Target;
  let articles: string;
  const setNames: string[] = [];
  const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });
  const putSet = async (items: unknown[]) => {
    const name = uniqueName('cur');
    setNames.push(name);
    const res = await admin('PUT', `/curation_sets/${name}`, { items });
    if (res.status !== 200) throw new Error(`PUT curation set: ${res.status} ${res.text}`);
    return name;
  };
  /** Attaches exactly these sets to the articles collection. */
  const attach = async (...names: string[]) => {
    const res = await admin('PATCH', `/collections/${articles}`, { curation_sets: names });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'curation');
  });
  afterAll(async () => {
    await admin('DELETE', `/collections/${articles}`);
    for (const name of setNames) await admin('DELETE', `/curation_sets/${name}`);
    await target.close();
  });

  it('PUT answers the set with every item default filled in; GET, list, items and item routes read it back', async () => {
    const name = uniqueName('cur');
    setNames.push(name);
    const put = await admin('PUT', `/curation_sets/${name}`, {
      items: [
        { id: 'pin-b', rule: { query: 'Feedback', match: 'exact' }, includes: [{ id: 'a5', position: 1 }], excludes: [{ id: 'a2' }], metadata: { banner: 'Read our feedback guide' } },
        { id: 'pin-a', rule: { tags: ['promo'] }, includes: [{ id: 'a4', position: 1 }] },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.json.name).toBe(name);
    // Typesense keeps items in an ordered map by id.
    expect(put.json.items.map((i: { id: string }) => i.id)).toEqual(['pin-a', 'pin-b']);
    expect(put.json.items[1]).toEqual({
      id: 'pin-b',
      rule: { query: 'Feedback', match: 'exact' },
      includes: [{ id: 'a5', position: 1 }],
      excludes: [{ id: 'a2' }],
      metadata: { banner: 'Read our feedback guide' },
      remove_matched_tokens: false,
      filter_curated_hits: false,
      stop_processing: true,
    });
    expect(put.json.items[0]).toMatchObject({ id: 'pin-a', rule: { tags: ['promo'] }, excludes: [] });

    expect((await admin('GET', `/curation_sets/${name}`)).json).toEqual(put.json);
    const list = await admin('GET', '/curation_sets');
    expect(list.status).toBe(200);
    expect(list.json.find((s: { name: string }) => s.name === name)).toEqual(put.json);
    const items = await admin('GET', `/curation_sets/${name}/items?limit=1&offset=1`);
    expect(items.json.map((i: { id: string }) => i.id)).toEqual(['pin-b']);
    expect((await admin('GET', `/curation_sets/${name}/items/pin-a`)).json).toEqual(put.json.items[0]);

    const added = await admin('PUT', `/curation_sets/${name}/items/extra`, { rule: { query: 'extra', match: 'contains' }, excludes: [{ id: 'a1' }] });
    expect(added.status).toBe(200);
    expect(added.json.id).toBe('extra');
    expect((await admin('GET', `/curation_sets/${name}`)).json.items.map((i: { id: string }) => i.id)).toEqual(['extra', 'pin-a', 'pin-b']);
    expect((await admin('DELETE', `/curation_sets/${name}/items/extra`)).status).toBe(200);
    expect((await admin('GET', `/curation_sets/${name}/items/extra`)).status).toBe(404);
  });

  it('rejects malformed items with 400 and unknown sets with 404; needs the admin key', async () => {
    const name = uniqueName('cur');
    const noRule = await admin('PUT', `/curation_sets/${name}`, { items: [{ id: 'x', includes: [{ id: 'a1', position: 1 }] }] });
    expect(noRule.status).toBe(400);
    expect(noRule.json).toEqual({ message: 'Missing `rule` definition.' });
    const noAction = await admin('PUT', `/curation_sets/${name}`, { items: [{ id: 'x', rule: { query: 'a', match: 'exact' } }] });
    expect(noAction.status).toBe(400);
    expect(noAction.json.message).toMatch(/^Must contain one of: `includes`, `excludes`, `metadata`/);
    const badInclude = await admin('PUT', `/curation_sets/${name}`, { items: [{ id: 'x', rule: { query: 'a', match: 'exact' }, includes: [{ id: 'a1' }] }] });
    expect(badInclude.status).toBe(400);
    expect(badInclude.json).toEqual({ message: 'Inclusion definition must define both `id` and `position` keys.' });
    expect((await admin('GET', `/curation_sets/${name}`)).status).toBe(404);
    expect((await admin('DELETE', `/curation_sets/${name}`)).status).toBe(404);
    const unauthorized = await http(target.url, 'PUT', `/curation_sets/${name}`, { key: target.searchKey, body: { items: [] } });
    expect(unauthorized.status).toBe(401);
  });

  it('a collection references sets on create and through PATCH; unknown sets answer 404', async () => {
    const set = await putSet([{ id: 'r', rule: { query: 'x', match: 'exact' }, excludes: [{ id: 'a1' }] }]);
    const name = uniqueName('withsets');
    const missing = await admin('POST', '/collections', { name, fields: [{ name: 't', type: 'string' }], curation_sets: ['no-such-set-15'] });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'Curation set `no-such-set-15` not found.' });
    const created = await admin('POST', '/collections', { name, fields: [{ name: 't', type: 'string' }], curation_sets: [set] });
    expect(created.status).toBe(201);
    expect(created.json.curation_sets).toEqual([set]);
    try {
      const patched = await admin('PATCH', `/collections/${name}`, { curation_sets: [] });
      expect(patched.status).toBe(200);
      expect(patched.json).toEqual({ curation_sets: [] });
      expect((await admin('GET', `/collections/${name}`)).json.curation_sets).toEqual([]);
      const unknown = await admin('PATCH', `/collections/${name}`, { curation_sets: ['no-such-set-15'] });
      expect(unknown.status).toBe(404);
      expect((await admin('PATCH', `/collections/${name}`, {})).json).toEqual({ message: 'Alter payload is empty.' });
      expect((await admin('PATCH', '/collections/no_such_collection_15', { curation_sets: [] })).status).toBe(404);
    } finally {
      await admin('DELETE', `/collections/${name}`);
    }
  });

  it('an exact rule pins and hides documents, marks pinned hits `curated`, counts them in `found` and returns `metadata`', async () => {
    const set = await putSet([
      { id: 'feedback', rule: { query: 'feedback', match: 'exact' }, includes: [{ id: 'a5', position: 1 }], excludes: [{ id: 'a2' }], metadata: { banner: 'Start here' } },
    ]);
    await attach(set);
    const result = await search(target, articles, { q: 'Feedback', query_by: TEXT });
    expect(hitIds(result)).toEqual(['a5', 'a1']);
    expect(result.found).toBe(2);
    expect(result.metadata).toEqual({ banner: 'Start here' });
    expect(result.hits[0].curated).toBe(true);
    expect(result.hits[0]).not.toHaveProperty('text_match');
    expect(result.hits[1]).not.toHaveProperty('curated');
    expect(typeof result.hits[1].text_match).toBe('number');

    // `exact` needs the whole query; enable_curations=false switches curation off.
    const longer = await search(target, articles, { q: 'feedback regular', query_by: TEXT });
    expect(longer).not.toHaveProperty('metadata');
    expect(hitIds(longer)).not.toContain('a5');
    const off = await search(target, articles, { q: 'feedback', query_by: TEXT, enable_curations: false });
    expect(off).not.toHaveProperty('metadata');
    expect(hitIds(off).sort()).toEqual(['a1', 'a2']);
    // Typesense 30 renamed enable_overrides to enable_curations and ignores the old name.
    expect(hitIds(await search(target, articles, { q: 'feedback', query_by: TEXT, enable_overrides: false }))).toEqual(['a5', 'a1']);
  });

  it('a contains rule fires for any query with its words; a pinned position past the results goes last', async () => {
    const set = await putSet([{ id: 'remote', rule: { query: 'remote', match: 'contains' }, includes: [{ id: 'a3', position: 9 }], metadata: { topic: 'remote' } }]);
    await attach(set);
    const result = await search(target, articles, { q: 'remote leadership', query_by: TEXT });
    expect(result.metadata).toEqual({ topic: 'remote' });
    expect(hitIds(result).at(-1)).toBe('a3');
    expect(result.hits.at(-1).curated).toBe(true);
    expect((await search(target, articles, { q: 'remotely', query_by: TEXT })).metadata).toBeUndefined();
  });

  it('filter_curated_hits drops pinned documents that fail filter_by (per rule or per request)', async () => {
    const set = await putSet([{ id: 'agile', rule: { query: 'teams', match: 'exact' }, includes: [{ id: 'a5', position: 1 }] }]);
    await attach(set);
    const loose = await search(target, articles, { q: 'teams', query_by: TEXT, filter_by: 'topic:=Leadership' });
    expect(hitIds(loose)[0]).toBe('a5');
    const strict = await search(target, articles, { q: 'teams', query_by: TEXT, filter_by: 'topic:=Leadership', filter_curated_hits: true });
    expect(hitIds(strict)).not.toContain('a5');
    expect(hitIds(strict)).toEqual(['a1']);

    const ruleSet = await putSet([{ id: 'agile', rule: { query: 'teams', match: 'exact' }, includes: [{ id: 'a5', position: 1 }], filter_curated_hits: true }]);
    await attach(ruleSet);
    expect(hitIds(await search(target, articles, { q: 'teams', query_by: TEXT, filter_by: 'topic:=Leadership' }))).toEqual(['a1']);
  });

  it('a rule can add a filter (dropping its words from the query) and replace the sort order', async () => {
    const set = await putSet([{ id: 'quick', rule: { query: 'quick reads', match: 'exact' }, filter_by: 'readingTime:<=5', sort_by: 'readingTime:asc' }]);
    await attach(set);
    const result = await search(target, articles, { q: 'quick reads', query_by: TEXT });
    expect(hitIds(result)).toEqual(['a4', 'a2', 'a3']);
    const replaced = await putSet([{ id: 'quick', rule: { query: 'quick reads', match: 'exact' }, replace_query: 'negotiation' }]);
    await attach(replaced);
    expect(hitIds(await search(target, articles, { q: 'quick reads', query_by: TEXT }))).toEqual(['a3']);
  });

  it('tagged rules apply only when the request names a tag (curation_tags); `*`-tagged rules always', async () => {
    const set = await putSet([
      { id: 'promo', rule: { tags: ['promo'] }, includes: [{ id: 'a3', position: 1 }] },
      { id: 'zz-all', rule: { tags: ['*'], query: 'career', match: 'exact' }, metadata: { any: true } },
    ]);
    await attach(set);
    expect(hitIds(await search(target, articles, { q: '*' }))[0]).toBe('a4');
    const tagged = await search(target, articles, { q: '*', curation_tags: 'promo' });
    expect(hitIds(tagged)[0]).toBe('a3');
    expect(tagged.hits[0].curated).toBe(true);
    expect((await search(target, articles, { q: 'career', query_by: TEXT })).metadata).toEqual({ any: true });
  });

  it('pinned_hits and hidden_hits work per request; hidden wins', async () => {
    await attach();
    const result = await search(target, articles, { q: '*', pinned_hits: 'a5:1,a3:2', hidden_hits: 'a4,a3' });
    expect(hitIds(result)).toEqual(['a5', 'a2', 'a1']);
    expect(result.found).toBe(3);
    expect(result.hits[0].curated).toBe(true);
  });
});
