import type { Collection } from '../index/collection.js';
import { matchText, packScore, type QueryField, type TextMatchOptions, type TextMatchResult } from './text-match.js';

/**
 * Matches the query and each synonym alternative and unites the results, as Typesense
 * searches synonym variants of a query next to the query itself. Every document keeps
 * its best-scoring match. Alternatives use `synonym_num_typos` / `synonym_prefix` (fields
 * given by the caller) and never drop words. Without alternatives this is `matchText`.
 * `demoteSynonymMatch` (Typesense's `demote_synonym_match`, default false): a synonym match
 * gets synonym score 0 instead of 1 in its field score (`score_results2` in `src/index.cpp`:
 * `synonym_score = (is_synonym_query && demote_synonym_match) ? 0 : 1`), so it ranks below the
 * same match of the query's own words.
 */
export function matchWithSynonyms(collection: Collection, options: TextMatchOptions, alternatives: string[][], synonymFields: QueryField[], demoteSynonymMatch = false): TextMatchResult {
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
  const synonymScores = new Uint8Array(limit);
  const seen = new Uint8Array(limit);
  const seqs: number[] = [];
  const matchedTerms = new Map(first.matchedTerms);
  const originalWords = first.numTokens;
  // Copies out of `matchText`'s reused scratch memory before the next call overwrites it.
  // A synonym match counts as many words as the query (Typesense scores it with the query's
  // length, `syn_orig_num_tokens`), so a longer synonym does not outrank the query's own words.
  const absorb = (result: TextMatchResult, synonym: boolean): void => {
    for (const seq of result.seqs) {
      if (synonym) {
        const scale = (value: number): number => Math.max(1, Math.min(originalWords, Math.round((value * originalWords) / Math.max(result.numTokens, 1))));
        result.tokensMatched[seq] = originalWords;
        result.bestFieldTokens[seq] = scale(result.bestFieldTokens[seq] as number);
        result.bestFieldUnique[seq] = scale(result.bestFieldUnique[seq] as number);
        result.bestFieldDistance[seq] = Math.min(result.bestFieldDistance[seq] as number, Math.max(0, (result.bestFieldTokens[seq] as number) - 1));
        result.scores[seq] = packScore(
          originalWords,
          result.bestFieldTokens[seq] as number,
          result.bestFieldUnique[seq] as number,
          result.typoCost[seq] as number,
          result.bestFieldDistance[seq] as number,
          result.bestFieldVerbatim[seq] as number,
          result.bestFieldWeight[seq] as number,
          result.fieldsMatched[seq] as number,
          result.synonymScore,
        );
      }
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
      synonymScores[seq] = result.synonymScores?.[seq] ?? result.synonymScore;
    }
    for (const [term, match] of result.matchedTerms) {
      const previous = matchedTerms.get(term);
      if (!previous || previous.cost > match.cost) matchedTerms.set(term, match);
    }
  };
  absorb(first, false);
  for (const words of alternatives) {
    // Alternatives are scored in full (no proximity cut): their scores are rescaled afterwards.
    absorb(matchText(collection, { ...options, words, fields: synonymFields, dropTokensThreshold: 0, refineTop: undefined, synonymScore: demoteSynonymMatch ? 0 : 1 }), true);
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
    synonymScore: first.synonymScore,
    synonymScores,
  };
}
