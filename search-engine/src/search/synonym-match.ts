import type { Collection } from '../index/collection.js';
import { matchText, type QueryField, type TextMatchOptions, type TextMatchResult } from './text-match.js';

/**
 * Matches the query and each synonym alternative and unites the results, as Typesense
 * searches synonym variants of a query next to the query itself. Every document keeps
 * its best-scoring match. Alternatives use `synonym_num_typos` / `synonym_prefix` (fields
 * given by the caller) and never drop words. Without alternatives this is `matchText`.
 */
export function matchWithSynonyms(collection: Collection, options: TextMatchOptions, alternatives: string[][], synonymFields: QueryField[]): TextMatchResult {
  const first = matchText(collection, options);
  if (alternatives.length === 0) return first;
  const limit = collection.seqLimit;
  const scores = new Float64Array(limit);
  const tokensMatched = new Uint8Array(limit);
  const typoCost = new Uint8Array(limit);
  const bestFieldTokens = new Uint8Array(limit);
  const bestFieldUnique = new Uint8Array(limit);
  const bestFieldDistance = new Uint8Array(limit);
  const bestFieldVerbatim = new Uint8Array(limit);
  const bestFieldWeight = new Uint8Array(limit);
  const fieldsMatched = new Uint8Array(limit);
  const seen = new Uint8Array(limit);
  const seqs: number[] = [];
  const matchedTerms = new Map(first.matchedTerms);
  // Copies out of `matchText`'s reused scratch memory before the next call overwrites it.
  const absorb = (result: TextMatchResult): void => {
    for (const seq of result.seqs) {
      const score = result.scores[seq] as number;
      if (seen[seq] === 1 && (scores[seq] as number) >= score) continue;
      if (seen[seq] === 0) {
        seen[seq] = 1;
        seqs.push(seq);
      }
      scores[seq] = score;
      tokensMatched[seq] = result.tokensMatched[seq] as number;
      typoCost[seq] = result.typoCost[seq] as number;
      bestFieldTokens[seq] = result.bestFieldTokens[seq] as number;
      bestFieldUnique[seq] = result.bestFieldUnique[seq] as number;
      bestFieldDistance[seq] = result.bestFieldDistance[seq] as number;
      bestFieldVerbatim[seq] = result.bestFieldVerbatim[seq] as number;
      bestFieldWeight[seq] = result.bestFieldWeight[seq] as number;
      fieldsMatched[seq] = result.fieldsMatched[seq] as number;
    }
    for (const [term, match] of result.matchedTerms) {
      const previous = matchedTerms.get(term);
      if (!previous || previous.cost > match.cost) matchedTerms.set(term, match);
    }
  };
  absorb(first);
  for (const words of alternatives) {
    absorb(matchText(collection, { ...options, words, fields: synonymFields, dropTokensThreshold: 0 }));
  }
  return {
    seqs: Int32Array.from(seqs),
    scores,
    tokensMatched,
    typoCost,
    bestFieldTokens,
    bestFieldUnique,
    bestFieldDistance,
    bestFieldVerbatim,
    bestFieldWeight,
    fieldsMatched,
    numTokens: first.numTokens,
    matchedTerms,
  };
}
