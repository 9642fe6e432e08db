import { describe, expect, it } from 'vitest';
import { TermDictionary } from '../src/index/term-dictionary.js';
import { osaDistance } from '../src/text/osa-distance.js';

/** Deterministic pseudo-random words over a small alphabet, so near misses are common. */
function words(count: number, seed: number): string[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  const alphabet = 'abcdeilnorst';
  return Array.from({ length: count }, () => {
    const length = 2 + Math.floor(next() * 9);
    let word = '';
    for (let i = 0; i < length; i++) word += alphabet[Math.floor(next() * alphabet.length)];
    return word;
  });
}

describe('TermDictionary typo candidates (OSA walk over sorted terms)', () => {
  const dictionary = new TermDictionary();
  const vocabulary = [...new Set(words(1500, 7))];
  for (const word of vocabulary) dictionary.adjustFrequency(dictionary.intern(word), 1);

  it('finds exactly the terms a brute-force OSA distance finds, whole-word and prefix', () => {
    for (const query of words(30, 99)) {
      for (const maxCost of [1, 2]) {
        for (const prefix of [false, true]) {
          const expected = vocabulary.filter((term) => osaDistance(query, term, prefix) <= maxCost).sort();
          const actual = dictionary
            .typoCandidates(query, maxCost, 0, prefix, Number.MAX_SAFE_INTEGER)
            .map((c) => dictionary.termOf(c.termId))
            .sort();
          expect(actual, `${query} cost<=${maxCost} prefix=${prefix}`).toEqual(expected);
        }
      }
    }
  });

  it('counts a transposition as one edit and reports the cost', () => {
    const small = new TermDictionary();
    for (const word of ['negotiation', 'leadership', 'feedback']) small.adjustFrequency(small.intern(word), 1);
    const [hit] = small.typoCandidates('feedbakc', 1, 1, false, 10);
    expect(hit && small.termOf(hit.termId)).toBe('feedback');
    expect(hit?.cost).toBe(1);
    expect(small.typoCandidates('negotaiton', 2, 0, false, 10).map((c) => small.termOf(c.termId))).toEqual(['negotiation']);
    expect(small.typoCandidates('conpet', 1, 0, true, 10)).toEqual([]);
    expect(small.typoCandidates('leadr', 1, 0, true, 10).map((c) => small.termOf(c.termId))).toEqual(['leadership']);
  });

  it('expands prefixes to the most frequent live terms first', () => {
    const d = new TermDictionary();
    const add = (word: string, times: number) => {
      const id = d.intern(word);
      d.adjustFrequency(id, times);
    };
    add('team', 5);
    add('teams', 9);
    add('teamwork', 2);
    add('tea', 1);
    add('teal', 0);
    expect(d.prefixExpansions('tea', 3).map((id) => d.termOf(id))).toEqual(['teams', 'team', 'teamwork']);
    expect(d.prefixExpansions('tea', 10).map((id) => d.termOf(id))).not.toContain('teal');
  });
});
