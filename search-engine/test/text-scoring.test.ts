import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hitIds, http, search, type Target, startTarget, uniqueName } from './support/target.js';

/**
 * Text-match scoring details taken from Typesense's source (typesense/typesense at the v30
 * curation refactor, `src/index.cpp`, `include/match_score.h`, `src/collection.cpp`); each
 * test names the lines it follows. Written to run unchanged against a real Typesense
 * (`TYPESENSE_URL`).
 */
describe('text scoring like Typesense: typo-prefix cost, verbatim, synonym demotion, long queries', () => {
  let target: Target;
  const created: string[] = [];
  const synonymSets: string[] = [];
  const admin = (method: string, path: string, body?: unknown) => http(target.url, method, path, { key: target.adminKey, body });
  const collection = async (schema: Record<string, unknown>, docs: unknown[]): Promise<string> => {
    const name = uniqueName('scoring');
    const response = await admin('POST', '/collections', { name, ...schema });
    if (response.status !== 201) throw new Error(response.text);
    created.push(name);
    const imported = await http(target.url, 'POST', `/collections/${name}/documents/import`, { key: target.adminKey, rawBody: docs.map((d) => JSON.stringify(d)).join('\n') });
    if (imported.text.includes('"success":false')) throw new Error(imported.text);
    return name;
  };
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(async () => {
    for (const name of created) await admin('DELETE', `/collections/${name}`);
    for (const name of synonymSets) await admin('DELETE', `/synonym_sets/${name}`);
    await target.close();
  });

  describe('issue 28: the typo-prefix tie (brands)', () => {
    it('ranks ChargeIt above ChargeHub for "Charger" although the default sorting field prefers ChargeHub', async () => {
      // src/index.cpp `next_suggestion2`: a candidate found by the prefix walk counts as a prefix
      // match only when `candidate.size() > token_size + typo_cost`; the cost is 2 per typo + 1
      // for a prefix. "Charger" (7) at 1 typo: `chargeit` (8 letters) is not longer than 7 + 1,
      // so it costs 2; `chargehub` (9) is a typo prefix and costs 3. ChargeIt wins on text match
      // before popularity is looked at.
      const brands = await collection(
        { fields: [{ name: 'name', type: 'string' }, { name: 'popularity', type: 'int32' }], default_sorting_field: 'popularity' },
        [
          { id: 'chargehub', name: 'ChargeHub', popularity: 900 },
          { id: 'chargeit', name: 'ChargeIt', popularity: 100 },
        ],
      );
      const result = await search(target, brands, { q: 'Charger', query_by: 'name' });
      expect(hitIds(result)).toEqual(['chargeit', 'chargehub']);
      expect(result.hits.map((hit: { text_match_info: { typo_prefix_score: number } }) => hit.text_match_info.typo_prefix_score)).toEqual([2, 3]);
      // Without a text-match difference the popularity order holds: both match "Charge" as a prefix (cost 1).
      expect(hitIds(await search(target, brands, { q: 'Charge', query_by: 'name' }))).toEqual(['chargehub', 'chargeit']);
    });
  });

  describe('verbatim match (prioritize_exact_match)', () => {
    let dishes: string;
    beforeAll(async () => {
      dishes = await collection({ fields: [{ name: 't', type: 'string' }] }, [
        { id: 'exact', t: 'Apple Pie' },
        // Newer: wins every tie.
        { id: 'longer', t: 'apple pie recipe' },
      ]);
    });
    const verbatimBit = (hit: { text_match_info: { best_field_score: string } }): bigint => (BigInt(hit.text_match_info.best_field_score) >> 12n) & 0xfn;

    it('a field of exactly the query words is verbatim in any order (Match::exact_match compares offsets, not the query order)', async () => {
      // include/match_score.h `Match(…, check_exact_match)`: exact when each query word occurs
      // once, they span the field and the field's last word is at offset count - 1.
      const result = await search(target, dishes, { q: 'pie apple', query_by: 't' });
      expect(hitIds(result)).toEqual(['exact', 'longer']);
      expect(result.hits.map(verbatimBit)).toEqual([1n, 0n]);
    });

    it('a field of exactly the query words is verbatim even when a word is matched with a typo (two or more words)', async () => {
      // src/index.cpp `score_results2`: with two or more words the verbatim check ignores the
      // typo cost (only a single-word query needs `total_cost == 0`).
      const result = await search(target, dishes, { q: 'aple pie', query_by: 't' });
      expect(hitIds(result)).toEqual(['exact', 'longer']);
      expect(result.hits.map(verbatimBit)).toEqual([1n, 0n]);
      expect(result.hits[0].text_match_info.typo_prefix_score).toBe(2);
    });

    it('a single-word query is verbatim only without typos', async () => {
      const single = await collection({ fields: [{ name: 't', type: 'string' }] }, [
        { id: 'word', t: 'Pie' },
        { id: 'words', t: 'pie crust' },
      ]);
      expect((await search(target, single, { q: 'pie', query_by: 't' })).hits.map(verbatimBit)).toEqual([1n, 0n]);
      const typo = await search(target, single, { q: 'pies', query_by: 't', prefix: false });
      expect(typo.hits.map(verbatimBit)).toEqual([0n, 0n]);
      // Without the verbatim bit the newer document wins the tie.
      expect(hitIds(typo)).toEqual(['words', 'word']);
    });
  });

  describe('candidate combinations', () => {
    it('scores each combination of candidate words a document holds and keeps the best', async () => {
      // src/index.cpp `search_all_candidates`: every combination of candidate tokens (up to
      // `max(10, max_candidates)`) is searched and scored on its own, and a document keeps its
      // best score. `near` holds `fox` (exact) far from `quick` and `foxes` (a prefix
      // expansion, cost 1) next to it: [quick foxes] has both words in the proximity window,
      // which ranks above cost, so it beats `far`, where only [quick fox] exists.
      const filler = 'and then some more words in between that keep them apart';
      const docs = await collection({ fields: [{ name: 't', type: 'string' }] }, [
        { id: 'near', t: `quick foxes ${filler} fox` },
        // Newer: wins if both score alike (as they do with one candidate per word).
        { id: 'far', t: `quick ${filler} fox` },
      ]);
      const result = await search(target, docs, { q: 'quick fox', query_by: 't' });
      expect(hitIds(result)).toEqual(['near', 'far']);
      expect(result.hits[0].text_match_info.typo_prefix_score).toBe(1);
      expect(result.hits[1].text_match_info.typo_prefix_score).toBe(0);
      // Words within the window: 2 for [quick foxes], 1 for `far` (bits 40–47 of the field score).
      expect(result.hits.map((hit: { text_match_info: { best_field_score: string } }) => BigInt(hit.text_match_info.best_field_score) >> 40n)).toEqual([2n, 1n]);
    });
  });

  describe('demote_synonym_match', () => {
    it('ranks a synonym match below the same match of the query word only with demote_synonym_match=true', async () => {
      // src/index.cpp `score_results2`: `synonym_score = (is_synonym_query && demote_synonym_match) ? 0 : 1`,
      // the lowest bits of the field score.
      const set = uniqueName('syn');
      const put = await admin('PUT', `/synonym_sets/${set}`, { items: [{ id: 'pc', synonyms: ['computer', 'pc'] }] });
      expect(put.status).toBe(200);
      synonymSets.push(set);
      const shop = await collection({ fields: [{ name: 't', type: 'string' }], synonym_sets: [set] }, [
        { id: 'own-word', t: 'laptop computer' },
        // Newer: wins the tie when synonym matches are not demoted.
        { id: 'synonym', t: 'laptop pc' },
      ]);
      const plain = await search(target, shop, { q: 'computer', query_by: 't' });
      expect(hitIds(plain)).toEqual(['synonym', 'own-word']);
      expect(plain.hits.map((hit: { text_match_info: { best_field_score: string } }) => BigInt(hit.text_match_info.best_field_score) & 0xfn)).toEqual([1n, 1n]);
      const demoted = await search(target, shop, { q: 'computer', query_by: 't', demote_synonym_match: true });
      expect(hitIds(demoted)).toEqual(['own-word', 'synonym']);
      expect(demoted.hits.map((hit: { text_match_info: { best_field_score: string } }) => BigInt(hit.text_match_info.best_field_score) & 0xfn)).toEqual([1n, 0n]);
    });
  });

  describe('issue 21: long queries are searched whole, typo and drop work bounded to the first words', () => {
    // 40 distinct words; `team` (the 40th) has a real-word typo `tram` that is itself indexed.
    const WORDS = [
      'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet',
      'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango',
      'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu', 'amber', 'basil', 'cedar', 'dune',
      'ember', 'fjord', 'garnet', 'harbor', 'island', 'jasper', 'kettle', 'lantern', 'meadow', 'team',
    ];
    let words: string;
    const query = (list: string[]) => ({ q: list.join(' '), query_by: 't' });
    beforeAll(async () => {
      words = await collection({ fields: [{ name: 't', type: 'string' }] }, [
        { id: 'all', t: WORDS.join(' ') },
        { id: 'first19', t: WORDS.slice(0, 19).join(' ') },
        { id: 'tram', t: 'tram ride' },
        { id: 'other', t: 'nothing in common' },
      ]);
    });

    it('a 100-word query of ordinary words answers 200 with hits over GET', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
      const response = await http(target.url, 'GET', `/collections/${words}/documents/search?q=${encodeURIComponent(hundred)}&query_by=t`, { key: target.searchKey });
      expect(response.status).toBe(200);
      expect(response.json.found).toBeGreaterThan(0);
      expect(response.json.hits[0].document.id).toBe('all');
    });

    it('searches all 40 words: only the document holding every one matches', async () => {
      const result = await search(target, words, query(WORDS));
      expect(hitIds(result)).toEqual(['all']);
      // tokens_matched is 4 bits in the score (src/index.cpp `compute_aggregated_score`: min(15, query_len)).
      expect(result.hits[0].text_match_info.tokens_matched).toBe(15);
    });

    it('corrects a misspelling that matches no indexed word at any position of a long query', async () => {
      // src/index.cpp `fuzzy_search_fields`: a token with no candidate at cost 0 loses that cost
      // ("Remove `cost` for token and re-do combinations"), whatever the query's length.
      for (const [at, typo] of [[0, 'alpah'], [39, 'teaam']] as const) {
        const list = [...WORDS];
        list[at] = typo;
        const result = await search(target, words, query(list));
        expect(hitIds(result)).toEqual(['all']);
        expect(result.hits[0].text_match_info.typo_prefix_score).toBe(2);
      }
    });

    it('beyond 30 words an indexed word is not typo-corrected, and drop rounds consider the first 20 words only', async () => {
      // src/index.cpp `fuzzy_search_fields`: `N = token_to_costs.size() > 30 ? 1 : …` searches a
      // single cost combination (every word as typed) for more than 30 words, so `tram` is not
      // corrected to `team`; then drop rounds over `min(orig_tokens.size(), 20)` words: the first
      // keeps words 1–19, which `first19` holds too.
      const long = [...WORDS.slice(0, 39), 'tram'];
      expect(hitIds(await search(target, words, query(long))).sort()).toEqual(['all', 'first19']);
      // 25 words: cost combinations are searched, the last word's first (`tram` → `team`), and
      // the whole query matches `all` alone.
      const short = [...WORDS.slice(15, 39), 'tram'];
      expect(short).toHaveLength(25);
      const result = await search(target, words, query(short));
      expect(hitIds(result)).toEqual(['all']);
      expect(result.hits[0].text_match_info.typo_prefix_score).toBe(2);
    });

    it('with drop_tokens_threshold above what the whole query finds, drop rounds add documents and the whole match ranks first', async () => {
      // src/index.cpp `Index::search`: drop rounds run `while(all_result_ids_len < drop_tokens_threshold)`
      // and add to the results of the whole query.
      const result = await search(target, words, { ...query(WORDS), drop_tokens_threshold: 3 });
      expect(hitIds(result)).toEqual(['all', 'first19']);
    });

    it('words after the 20th take no part in drop rounds', async () => {
      // No document holds all 40 (the 40th is `tram`), so drop rounds decide; `tram ride` holds
      // only the 40th word and is not found, though it would be by dropping all the others.
      const result = await search(target, words, query([...WORDS.slice(0, 39), 'tram']));
      expect(hitIds(result)).not.toContain('tram');
      // With 2 words, dropping from the right then the left reaches the last word: found.
      expect(hitIds(await search(target, words, query(['zzzz', 'tram'])))).toEqual(['tram']);
    });
  });
});
