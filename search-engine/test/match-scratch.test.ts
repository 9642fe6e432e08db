import { describe, expect, it } from 'vitest';
import { MatchScratch } from '../src/search/match-scratch.js';

/** Every array `reset` must leave at zero (tokenChoice is rewritten before it is read). */
const CLEARED = ['tokenMask', 'typoCost', 'prefixOnly', 'tokenCost', 'fieldTokenMask', 'heldCandidates', 'fieldUnionMask', 'multiCandidate', 'scores', 'tokensMatched', 'bestFieldTokens', 'bestFieldWeight', 'fieldsMatched', 'cost', 'bestFieldUnique', 'bestFieldDistance', 'bestFieldVerbatim'] as const;

function dirty(scratch: MatchScratch, seqs: number[], tokens: number, fields: number): void {
  scratch.reset(tokens, fields);
  for (const seq of seqs) {
    scratch.touched[scratch.touchedCount++] = seq;
    // The candidate-combination arrays are written (and cleared) for flagged documents only.
    scratch.flagged[scratch.flaggedCount++] = seq;
    for (const name of CLEARED) {
      const array = scratch[name];
      const stride = name === 'tokenCost' || name === 'heldCandidates' ? tokens : name === 'fieldTokenMask' || name === 'fieldUnionMask' ? fields : 1;
      for (let k = 0; k < stride; k++) array[seq * stride + k] = 7;
    }
  }
}

describe('MatchScratch.reset', () => {
  it.each([
    ['a few touched documents (cleared one by one)', [3, 17, 900]],
    ['most documents touched (whole arrays zeroed)', Array.from({ length: 800 }, (_, i) => i)],
  ])('%s: nothing of the previous query is left, with its own strides', (_name, seqs) => {
    const scratch = new MatchScratch(1000, 8, 4);
    dirty(scratch, seqs, 3, 4);
    scratch.reset(2, 1);
    for (const name of CLEARED) expect(scratch[name].every((value) => value === 0), name).toBe(true);
    expect(scratch.touchedCount).toBe(0);
    expect(scratch.flaggedCount).toBe(0);
    // The next query's strides are the ones cleared after it.
    dirty(scratch, seqs, 2, 1);
    scratch.reset(1, 1);
    for (const name of CLEARED) expect(scratch[name].every((value) => value === 0), name).toBe(true);
  });
});
