import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * Curation `diversity` (Typesense 30, issue 28). Facts from Typesense's source at the v30
 * curation refactor: commit 0b091b44 "Add `diversity` override parameter" (`src/diversity.cpp`
 * `diversity_t::parse` / `similarity_t::calculate`, `src/index.cpp` `populate_result_kvs`,
 * `src/collection.cpp` `curate_results`, `diversity_lambda` in `collection_search_args_t::init`)
 * and `test/collection_curation_test.cpp` `DiversityOverride` / `DiversityOverrideParsing`:
 * - an item's `diversity: {similarity_metric: [{field, method: equality|jaccard, weight = 1}]}`
 *   re-ranks the results by maximal marginal relevance: the best hit first, then each time the
 *   hit with the highest `λ·(-1) − (1−λ)·max similarity to the hits already chosen`, ties to the
 *   better ranked; `diversity_lambda` (default 0.5, 0..1) — 1 keeps the ranking;
 * - it applies when the item matches through `curation_tags` (the overlapping-tags walk);
 * - at search time a metric field must exist ("`f` field not found in the schema."), an array
 *   field must be a facet ("Enable faceting on `f` array field to use in diversity."), any other
 *   must be sortable or a facet ("Enable sorting/faceting on `f` field to use in diversity.");
 *   with `group_by`: "Diversity is not supported along with group_by.";
 * - item validation: "`similarity_metric` not found: …", "Invalid `similarity_metric` format: …",
 *   "`method` not found: …" (the offending JSON quoted with sorted keys), and an item with only
 *   `diversity` is valid.
 */
describe('curation diversity', () => {
  let target: Target;
  let tagsCollection: string;
  const sets: string[] = [];
  const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });

  beforeAll(async () => {
    target = await startTarget();
    const setName = uniqueName('div');
    const put = await admin('PUT', `/curation_sets/${setName}`, {
      items: [{ id: 'foo', rule: { tags: ['screen_pattern_rule'] }, diversity: { similarity_metric: [{ field: 'tags', method: 'jaccard' }] } }],
    });
    if (put.status !== 200) throw new Error(put.text);
    sets.push(setName);
    tagsCollection = uniqueName('tags');
    const created = await admin('POST', '/collections', {
      name: tagsCollection,
      fields: [
        { name: 'tags', type: 'string[]', facet: true },
        { name: 'label', type: 'string', optional: true },
        { name: 'labels', type: 'string[]', optional: true },
        { name: 'rank', type: 'int32', optional: true },
      ],
      curation_sets: [setName],
    });
    if (created.status !== 201) throw new Error(created.text);
    // Ids as Typesense assigns them in the ported test: "0".."5" in insertion order.
    const docs = [['gold', 'silver'], ['FINE PLATINUM'], ['bronze', 'gold'], ['silver'], ['silver', 'gold', 'bronze'], ['silver', 'FINE PLATINUM']];
    await http(target.url, 'POST', `/collections/${tagsCollection}/documents/import`, {
      key: target.adminKey,
      rawBody: docs.map((tags, i) => JSON.stringify({ id: String(i), tags })).join('\n'),
    });
  });
  afterAll(async () => {
    await admin('DELETE', `/collections/${tagsCollection}`);
    for (const name of sets) await admin('DELETE', `/curation_sets/${name}`);
    await target.close();
  });

  it('re-ranks by maximal marginal relevance over the jaccard similarity of tags (DiversityOverride)', async () => {
    expect(hitIds(await search(target, tagsCollection, { q: '*' }))).toEqual(['5', '4', '3', '2', '1', '0']);
    const diversified = await search(target, tagsCollection, { q: '*', curation_tags: 'screen_pattern_rule' });
    expect(diversified.found).toBe(6);
    expect(hitIds(diversified)).toEqual(['5', '2', '0', '3', '1', '4']);
    // Pages are cut from the diversified order.
    expect(hitIds(await search(target, tagsCollection, { q: '*', curation_tags: 'screen_pattern_rule', per_page: 2, page: 2 }))).toEqual(['0', '3']);
    // diversity_lambda=1: relevance only, the ranking is kept.
    expect(hitIds(await search(target, tagsCollection, { q: '*', curation_tags: 'screen_pattern_rule', diversity_lambda: 1 }))).toEqual(['5', '4', '3', '2', '1', '0']);
  });

  it('answers the item with its diversity and refuses malformed ones with Typesense messages', async () => {
    const name = uniqueName('divset');
    sets.push(name);
    const put = await admin('PUT', `/curation_sets/${name}`, {
      items: [{ id: 'x', rule: { tags: ['t'] }, diversity: { similarity_metric: [{ field: 'tags', method: 'Equality', weight: 0.5 }] } }],
    });
    expect(put.status).toBe(200);
    expect(put.json.items[0].diversity).toEqual({ similarity_metric: [{ field: 'tags', method: 'equality', weight: 0.5 }] });
    const refusals: [unknown, string][] = [
      [{ foo: 1 }, '`similarity_metric` not found: {"foo":1}'],
      [{ similarity_metric: [] }, 'Invalid `similarity_metric` format: []'],
      [{ similarity_metric: [{ method: 'cosine', field: 'tags' }] }, '`method` not found: {"field":"tags","method":"cosine"}'],
      [{ similarity_metric: [{ method: 'jaccard' }] }, '`field` not found: {"method":"jaccard"}'],
      ['yes', 'Invalid `diversity` format: "yes"'],
    ];
    for (const [diversity, message] of refusals) {
      const response = await admin('PUT', `/curation_sets/${name}/items/bad`, { rule: { tags: ['t'] }, diversity });
      expect([response.status, response.json.message], JSON.stringify(diversity)).toEqual([400, message]);
    }
  });

  it('checks the metric fields against the schema when a search uses the item', async () => {
    const check = async (metric: Record<string, unknown>, params: Record<string, unknown> = {}) => {
      const name = uniqueName('divcheck');
      sets.push(name);
      await admin('PUT', `/curation_sets/${name}`, { items: [{ id: 'c', rule: { tags: ['check'] }, diversity: { similarity_metric: [metric] } }] });
      await admin('PATCH', `/collections/${tagsCollection}`, { curation_sets: [name] });
      return search(target, tagsCollection, { q: '*', curation_tags: 'check', ...params });
    };
    expect(await check({ field: 'flow_id', method: 'equality' })).toEqual({ code: 400, error: '`flow_id` field not found in the schema.' });
    expect(await check({ field: 'labels', method: 'jaccard' })).toEqual({ code: 400, error: 'Enable faceting on `labels` array field to use in diversity.' });
    expect(await check({ field: 'label', method: 'equality' })).toEqual({ code: 400, error: 'Enable sorting/faceting on `label` field to use in diversity.' });
    expect(await check({ field: 'tags', method: 'jaccard' }, { group_by: 'tags' })).toEqual({ code: 400, error: 'Diversity is not supported along with group_by.' });
    // A sortable numeric field compares by equal values.
    const ranked = await check({ field: 'rank', method: 'equality' });
    expect(ranked.found).toBe(6);
    await admin('PATCH', `/collections/${tagsCollection}`, { curation_sets: [sets[0]] });
  });
});
