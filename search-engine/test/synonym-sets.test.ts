import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleCollection, hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

describe('synonym sets (Typesense 30): API, attachment and query expansion', () => {
  let target: Target;
  let articles: string;
  let set: string;
  const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });

  beforeAll(async () => {
    target = await startTarget();
    articles = await createArticleCollection(target, 'synonyms');
    set = uniqueName('syn');
    const put = await admin('PUT', `/synonym_sets/${set}`, {
      items: [
        { id: 'cv', synonyms: ['cv', 'résumé'] },
        { id: 'time-off', synonyms: ['time off', 'breaks'] },
        { id: 'management', root: 'management', synonyms: ['leadership'] },
        { id: 'haggling', synonyms: ['haggling', 'negotiation'] },
      ],
    });
    if (put.status !== 200) throw new Error(`PUT synonym set: ${put.status} ${put.text}`);
    const patched = await admin('PATCH', `/collections/${articles}`, { synonym_sets: [set] });
    if (patched.status !== 200) throw new Error(`PATCH: ${patched.status} ${patched.text}`);
  });
  afterAll(async () => {
    await admin('DELETE', `/collections/${articles}`);
    await admin('DELETE', `/synonym_sets/${set}`);
    await target.close();
  });

  it('PUT answers the set (root "" for multi-way), and GET, list, items and item routes read it back', async () => {
    const got = await admin('GET', `/synonym_sets/${set}`);
    expect(got.status).toBe(200);
    expect(got.json.name).toBe(set);
    expect(got.json.items[0]).toEqual({ id: 'cv', root: '', synonyms: ['cv', 'résumé'] });
    expect(got.json.items[2]).toEqual({ id: 'management', root: 'management', synonyms: ['leadership'] });
    const list = await admin('GET', '/synonym_sets');
    expect(list.json.find((s: { name: string }) => s.name === set)).toEqual(got.json);
    expect((await admin('GET', `/synonym_sets/${set}/items?limit=2`)).json.map((i: { id: string }) => i.id)).toEqual(['cv', 'time-off']);
    expect((await admin('GET', `/synonym_sets/${set}/items/haggling`)).json).toEqual({ id: 'haggling', root: '', synonyms: ['haggling', 'negotiation'] });
    expect((await admin('GET', `/collections/${articles}`)).json.synonym_sets).toEqual([set]);
  });

  it('rejects malformed items with 400, unknown sets with 404, non-admin keys with 401', async () => {
    const name = uniqueName('syn');
    const noSynonyms = await admin('PUT', `/synonym_sets/${name}`, { items: [{ id: 'x', root: 'a' }] });
    expect(noSynonyms.status).toBe(400);
    expect(noSynonyms.json).toEqual({ message: 'Could not find an array of `synonyms`' });
    const noId = await admin('PUT', `/synonym_sets/${name}`, { items: [{ synonyms: ['a', 'b'] }] });
    expect(noId.status).toBe(400);
    expect(noId.json).toEqual({ message: 'Missing `id` field.' });
    expect((await admin('GET', `/synonym_sets/${name}`)).status).toBe(404);
    expect((await admin('PATCH', `/collections/${articles}`, { synonym_sets: [name] })).status).toBe(404);
    expect((await http(target.url, 'GET', '/synonym_sets', { key: target.searchKey })).status).toBe(401);
  });

  it('multi-way synonyms find each other, including multi-word ones', async () => {
    expect(hitIds(await search(target, articles, { q: 'cv', query_by: 'title' }))).toEqual(['a4']);
    expect(hitIds(await search(target, articles, { q: 'time off', query_by: 'title' }))).toEqual(['a4']);
    expect(hitIds(await search(target, articles, { q: 'haggling', query_by: 'title' }))).toEqual(['a3']);
    const highlighted = await search(target, articles, { q: 'haggling', query_by: 'title' });
    expect(highlighted.hits[0].highlight.title.snippet).toBe('<mark>Negotiation</mark> basics for beginners');
  });

  it('one-way synonyms expand only the root', async () => {
    const management = await search(target, articles, { q: 'management', query_by: 'title,headline' });
    expect(hitIds(management).sort()).toEqual(['a1', 'a5']);
    const leadership = await search(target, articles, { q: 'leadership', query_by: 'title,headline' });
    expect(hitIds(leadership)).not.toContain('a5');
  });

  it('a longer synonym does not outrank the query word itself (scored with the query length)', async () => {
    const name = uniqueName('synrank');
    await admin('POST', '/collections', { name, fields: [{ name: 't', type: 'string' }] });
    // The synonym match is older: only its score could put it first.
    await http(target.url, 'POST', `/collections/${name}/documents/import`, {
      key: target.adminKey,
      rawBody: [{ id: 'synonym', t: 'time off policy' }, { id: 'word', t: 'quick breaks' }].map((d) => JSON.stringify(d)).join('\n'),
    });
    await admin('PATCH', `/collections/${name}`, { synonym_sets: [set] });
    try {
      const result = await search(target, name, { q: 'breaks', query_by: 't' });
      expect(hitIds(result)).toEqual(['word', 'synonym']);
      expect(result.hits[1].text_match_info.tokens_matched).toBe(1);
    } finally {
      await admin('DELETE', `/collections/${name}`);
    }
  });

  it('the synonym_sets parameter adds sets for one search', async () => {
    const extra = uniqueName('syn');
    await admin('PUT', `/synonym_sets/${extra}`, { items: [{ id: 'agile', synonyms: ['agile', 'scrum'] }] });
    try {
      expect((await search(target, articles, { q: 'scrum', query_by: 'title' })).found).toBe(0);
      expect(hitIds(await search(target, articles, { q: 'scrum', query_by: 'title', synonym_sets: extra }))).toEqual(['a5']);
    } finally {
      await admin('DELETE', `/synonym_sets/${extra}`);
    }
  });

  it('enable_synonyms=false searches the words alone; item changes apply to the next search', async () => {
    expect((await search(target, articles, { q: 'cv', query_by: 'title', enable_synonyms: false })).found).toBe(0);
    expect((await admin('DELETE', `/synonym_sets/${set}/items/cv`)).json).toEqual({ id: 'cv' });
    expect((await search(target, articles, { q: 'cv', query_by: 'title' })).found).toBe(0);
    const back = await admin('PUT', `/synonym_sets/${set}/items/cv`, { synonyms: ['cv', 'résumé'] });
    expect(back.status).toBe(200);
    expect(hitIds(await search(target, articles, { q: 'cv', query_by: 'title' }))).toEqual(['a4']);
  });
});
