import type { Collection, TextFieldIndex } from '../index/collection.js';
import { typoBudget } from '../text/osa-distance.js';
import { scratchFor } from './match-scratch.js';
import { proximityOf } from './word-proximity.js';

/** A searched field with its settings. */
export interface QueryField {
  index: TextFieldIndex;
  weight: number;
  prefix: boolean;
  numTypos: number;
}

/** How a document term matched a query word (used again for highlighting). */
export interface MatchedTerm {
  token: number;
  cost: number;
  /** True when the term only matched as a prefix expansion of the query word. */
  prefix: boolean;
  /** Length (in folded characters) of the query word that matched. */
  queryLength: number;
}

export interface TextMatchOptions {
  words: string[];
  excludedWords: string[];
  fields: QueryField[];
  minLen1Typo: number;
  minLen2Typo: number;
  typoTokensThreshold: number;
  dropTokensThreshold: number;
  maxCandidates: number;
  /** Rank a field that consists of exactly the query words first (`prioritize_exact_match`). */
  prioritizeExactMatch: boolean;
  /** Documents allowed by `filter_by`, or undefined for all. */
  filter: Uint8Array | undefined;
  /**
   * When the caller ranks by text match first and needs only the best `refineTop`
   * documents: word proximity is computed only where it can change those (threshold
   * refinement); the other documents keep an upper-bound score below the cut.
   */
  refineTop?: number;
}

/**
 * Threshold refinement: scores are upper bounds until refined (exact ≤ bound). Walks the
 * documents by bound, best first, refining those that need it, and stops once the next bound
 * is below the `k`-th best final score: no unrefined document can enter the top `k`.
 */
/** The `rank`-th smallest value (0-based) of `values` (reordered in place): Hoare's quickselect. */
function selectNth(values: Float64Array, rank: number): number {
  let left = 0;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >> 1] as number;
    let i = left;
    let j = right;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (rank <= j) right = j;
    else if (rank >= i) left = i;
    else break;
  }
  return values[rank] as number;
}

function refineProximity(matched: Int32Array, needs: number[], k: number, scores: Float64Array, refine: (seq: number) => void): void {
  let limit = 0;
  for (const seq of matched) if (seq >= limit) limit = seq + 1;
  const needsFlag = new Uint8Array(limit);
  for (const seq of needs) needsFlag[seq] = 1;
  // Only the documents with the highest bounds are ordered (a native numeric sort finds the
  // cut); the rest are ordered only if the walk reaches them.
  const bounds = new Float64Array(matched.length);
  for (let i = 0; i < matched.length; i++) bounds[i] = scores[matched[i] as number] as number;
  const cut = selectNth(bounds, Math.max(0, bounds.length - Math.max(k * 4, 64)));
  const head: number[] = [];
  const tail: number[] = [];
  for (const seq of matched) ((scores[seq] as number) >= cut ? head : tail).push(seq);
  const byBound = (a: number, b: number): number => (scores[b] as number) - (scores[a] as number);
  head.sort(byBound);
  let order: Iterable<number> = head;
  const rest = function* (): Generator<number> {
    yield* head;
    yield* tail.sort(byBound);
  };
  order = tail.length > 0 ? rest() : head;
  // Min-heap of the best k final scores seen so far.
  const heap: number[] = [];
  const push = (value: number): void => {
    if (heap.length < k) {
      heap.push(value);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((heap[parent] as number) <= (heap[i] as number)) break;
        [heap[parent], heap[i]] = [heap[i] as number, heap[parent] as number];
        i = parent;
      }
      return;
    }
    if (value <= (heap[0] as number)) return;
    heap[0] = value;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && (heap[left] as number) < (heap[smallest] as number)) smallest = left;
      if (right < heap.length && (heap[right] as number) < (heap[smallest] as number)) smallest = right;
      if (smallest === i) return;
      [heap[smallest], heap[i]] = [heap[i] as number, heap[smallest] as number];
      i = smallest;
    }
  };
  for (const seq of order) {
    if (heap.length >= k && (scores[seq] as number) < (heap[0] as number)) break;
    if (needsFlag[seq] === 1) refine(seq);
    push(scores[seq] as number);
  }
}

/** Per-document match data and the matched documents (arrays are reused by the next query). */
export interface TextMatchResult {
  /** Matched sequence ids (unordered; a view into reused memory). */
  seqs: Int32Array;
  /**
   * Sortable text-match score per sequence id (only valid for matched ids): Typesense's
   * order of criteria (see `matchText`) packed into 39 bits of a double.
   */
  scores: Float64Array;
  /** Query words the document matched (Typesense's `tokens_matched`). */
  tokensMatched: Uint8Array;
  /** Typesense's candidate cost: 2 per typo plus 1 for a word matched only as a prefix. */
  typoCost: Uint8Array;
  /** Best field: query words within the proximity window. */
  bestFieldTokens: Uint8Array;
  /** Best field: distinct query words. */
  bestFieldUnique: Uint8Array;
  /** Best field: spread of those words (0 = adjacent or a single word). */
  bestFieldDistance: Uint8Array;
  /** Best field: 1 when it consists of exactly the query words. */
  bestFieldVerbatim: Uint8Array;
  bestFieldWeight: Uint8Array;
  fieldsMatched: Uint8Array;
  numTokens: number;
  /** Terms that matched a query word, by term text. */
  matchedTerms: Map<string, MatchedTerm>;
}


/**
 * Packs Typesense's MAX_SCORE criteria into a sortable double (39 bits): words matched;
 * best field: words in window, distinct words, cost, proximity, verbatim; its weight;
 * number of fields matched.
 */
export function packScore(tokensMatched: number, words: number, unique: number, cost: number, distance: number, verbatim: number, weight: number, fields: number): number {
  const fieldScore = (((Math.min(words, 31) * 32 + Math.min(unique, 31)) * 64 + (63 - Math.min(cost, 63))) * 128 + (100 - Math.min(distance, 100))) * 2 + verbatim;
  return ((Math.min(tokensMatched, 15) * 2 ** 24 + fieldScore) * 256 + Math.min(weight, 255)) * 8 + Math.min(fields, 7);
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Typesense's matching cascade: every query word must match (AND); first
 * exact words and, for the last word, prefix expansions; typo variants
 * (1, then 2 edits, within the length budget) only while fewer than
 * `typo_tokens_threshold` documents match; then words are dropped from the
 * right (then from the left) while fewer than `drop_tokens_threshold` match.
 */
export function matchText(collection: Collection, options: TextMatchOptions): TextMatchResult {
  const { words, fields, filter } = options;
  const limit = collection.seqLimit;
  const fieldCount = fields.length;
  const n0 = Math.max(words.length, 1);
  const scratch = scratchFor(collection, limit, n0, fieldCount);
  const { tokenMask, typoCost, fieldTokenMask, touched, tokenChoice } = scratch;
  // Terms applied per query word, in order; a document's choice for the word indexes this list.
  const appliedTerms: number[][] = Array.from({ length: Math.max(words.length, 1) }, () => []);
  const prefixMatches = scratch.prefixOnly;
  // Cost of the first (cheapest) match of each query word per document, for drop-token rounds.
  const tokenCost = scratch.tokenCost;
  const matchedTerms = new Map<string, MatchedTerm>();
  const dictionary = collection.dictionary;
  const n = words.length;
  const fullMask = n >= 32 ? 0xffffffff : (1 << n) - 1;

  const apply = (token: number, termId: number, cost: number, prefixOnly: boolean): void => {
    const bit = 1 << token;
    let used = false;
    const applied = appliedTerms[token] as number[];
    let choice = applied.indexOf(termId);
    if (choice < 0) {
      choice = applied.length;
      applied.push(termId);
    }
    if (choice > 254) choice = 255;
    for (let f = 0; f < fieldCount; f++) {
      const field = fields[f] as QueryField;
      if (prefixOnly && !field.prefix) continue;
      if (cost > field.numTypos) continue;
      const list = field.index.postings[termId];
      if (!list || list.length === 0) continue;
      used = true;
      const ids = list.ids;
      for (let i = 0; i < list.length; i++) {
        const seq = ids[i] as number;
        if (filter && filter[seq] === 0) continue;
        const m = tokenMask[seq] as number;
        if (m === 0) touched[scratch.touchedCount++] = seq;
        if ((m & bit) === 0) {
          tokenMask[seq] = m | bit;
          typoCost[seq] = (typoCost[seq] as number) + cost;
          if (prefixOnly) prefixMatches[seq] = (prefixMatches[seq] as number) + 1;
          tokenCost[seq * n0 + token] = cost;
          tokenChoice[seq * n0 + token] = choice;
        } else if (tokenChoice[seq * n0 + token] !== choice) {
          // Typesense scores one candidate word per query word: another expansion of the same
          // word (e.g. `chargers` after `charger`) does not add fields.
          continue;
        }
        fieldTokenMask[seq * fieldCount + f] = (fieldTokenMask[seq * fieldCount + f] as number) | bit;
      }
    }
    if (used) {
      const term = dictionary.termOf(termId);
      const previous = matchedTerms.get(term);
      if (!previous || previous.cost > cost) matchedTerms.set(term, { token, cost, prefix: prefixOnly, queryLength: (words[token] as string).length });
    }
  };

  let level = 0;
  /** A round of the cascade: documents must match all words in `mask`, each within `maxCost` typos. */
  type Round = { mask: number; maxCost: number };
  const accepts = (seq: number, rounds: Round[]): boolean => {
    const m = tokenMask[seq] as number;
    for (const round of rounds) {
      if ((m & round.mask) !== round.mask) continue;
      // Every applied candidate costs at most `level`: no per-word check needed.
      if (round.maxCost >= level) return true;
      let ok = true;
      for (let t = 0; t < n && ok; t++) {
        if (round.mask & (1 << t) && (tokenCost[seq * n0 + t] as number) > round.maxCost) ok = false;
      }
      if (ok) return true;
    }
    return false;
  };
  const countMatching = (rounds: Round[]): number => {
    let count = 0;
    // Indexed loops over the touched documents: an iterator allocated a result object per document.
    for (let i = 0, end = scratch.touchedCount; i < end; i++) if (accepts(touched[i] as number, rounds)) count++;
    return count;
  };

  const anyPrefix = fields.some((f) => f.prefix);
  const maxFieldTypos = Math.max(0, ...fields.map((f) => f.numTypos));
  // Level 0: exact words and prefix expansions of the last word.
  words.forEach((word, token) => {
    const exact = dictionary.lookup(word);
    if (exact !== undefined) apply(token, exact, 0, false);
    if (token === n - 1 && anyPrefix) {
      for (const termId of dictionary.prefixExpansions(word, options.maxCandidates)) {
        if (termId !== exact) apply(token, termId, 0, true);
      }
    }
  });
  let rounds: Round[] = [{ mask: fullMask, maxCost: 0 }];
  let found = countMatching(rounds);
  while (level < 2 && found < options.typoTokensThreshold) {
    level++;
    const current = level;
    words.forEach((word, token) => {
      const budget = Math.min(typoBudget(word.length, options.minLen1Typo, options.minLen2Typo), maxFieldTypos);
      if (budget < current) return;
      for (const candidate of dictionary.typoCandidates(word, current, current, false, options.maxCandidates)) {
        apply(token, candidate.termId, current, false);
      }
      if (token === n - 1 && anyPrefix) {
        for (const candidate of dictionary.typoCandidates(word, current, current, true, options.maxCandidates)) {
          apply(token, candidate.termId, current, true);
        }
      }
    });
    rounds = [{ mask: fullMask, maxCost: current }];
    found = countMatching(rounds);
  }
  if (found < options.dropTokensThreshold && n > 1) {
    // Drop words from the right, then from the left; each reduced query runs its own typo cascade.
    const drops: number[] = [];
    for (let k = n - 1; k >= 1; k--) drops.push((1 << k) - 1);
    for (let k = n - 1; k >= 1; k--) drops.push(fullMask & ~((1 << (n - k)) - 1));
    outer: for (const mask of drops) {
      for (let cost = 0; cost <= level; cost++) {
        const attempt = [...rounds, { mask, maxCost: cost }];
        const attemptFound = countMatching(attempt);
        if (attemptFound >= options.typoTokensThreshold || cost === level) {
          rounds = attempt;
          found = attemptFound;
          break;
        }
      }
      if (found >= options.dropTokensThreshold) break outer;
    }
  }

  const excluded = new Uint8Array(options.excludedWords.length > 0 ? limit : 0);
  for (const word of options.excludedWords) {
    const termId = dictionary.lookup(word);
    if (termId === undefined) continue;
    for (const field of fields) {
      const list = field.index.postings[termId];
      if (list) for (let i = 0; i < list.length; i++) excluded[list.ids[i] as number] = 1;
    }
  }

  const { scores, tokensMatched, bestFieldTokens, bestFieldWeight, fieldsMatched, bestFieldUnique, bestFieldDistance, bestFieldVerbatim } = scratch;
  const candidateCost = scratch.cost;
  if (scratch.matched.length < scratch.touchedCount) scratch.matched = new Int32Array(Math.ceil(scratch.touchedCount * 1.25));
  const matchedIds = scratch.matched;
  let matchedCount = 0;
  // Positions per query word per array element, reused across documents.
  const positions: number[][][] = [];
  const wanted = new Int32Array(Math.max(n, 1));
  /**
   * Scores one document (writes its score parts). Without `proximity` the words of a field
   * are assumed adjacent: an upper bound of the exact score. Returns true when some field
   * holds two or more query words (so proximity could lower the score).
   */
  const scoreDocument = (seq: number, proximity: boolean): boolean => {
    const m = tokenMask[seq] as number;
    const queryLength = Math.min(popcount(m), 15);
    // Typesense's candidate cost: 2 per typo, 1 per word matched only as a prefix.
    const cost = Math.min(2 * (typoCost[seq] as number) + (prefixMatches[seq] as number), 63);
    let bestField = -1;
    let bestWords = 0;
    let bestUnique = 0;
    let bestDistance = 0;
    let bestVerbatim = 0;
    let bestWeight = 0;
    let matchedFields = 0;
    let multiWord = false;
    for (let f = 0; f < fieldCount; f++) {
      const fm = fieldTokenMask[seq * fieldCount + f] as number;
      if (fm === 0) continue;
      matchedFields++;
      const field = fields[f] as QueryField;
      let unique = popcount(fm);
      let words = unique;
      let distance = 0;
      if (unique > 1) multiWord = true;
      const verbatimHere = options.prioritizeExactMatch && cost === 0 && fm === fullMask && field.index.wordCounts[seq] === n ? 1 : 0;
      const boundHere = (((Math.min(unique, 31) * 32 + Math.min(unique, 31)) * 64 + (63 - cost)) * 128 + (100 - (unique - 1))) * 2 + verbatimHere;
      const bestSoFar = bestField < 0 ? -1 : (((Math.min(bestWords, 31) * 32 + Math.min(bestUnique, 31)) * 64 + (63 - cost)) * 128 + (100 - bestDistance)) * 2 + bestVerbatim;
      // A field whose best possible score cannot beat the best field so far needs no proximity.
      if (boundHere <= bestSoFar) continue;
      if (unique > 1 && proximity) {
        // Word proximity from the stored word sequence: the best array element wins.
        for (let t = 0; t < n; t++) wanted[t] = (fm & (1 << t)) !== 0 ? ((appliedTerms[t] as number[])[tokenChoice[seq * n0 + t] as number] ?? -1) : -1;
        field.index.sequences.collectPositions(seq, wanted, n, positions);
        words = 0;
        distance = 0;
        for (const lists of positions) {
          if (!lists) continue;
          const match = proximityOf(lists.filter((list) => list !== undefined && list.length > 0));
          if (match.wordsPresent > words || (match.wordsPresent === words && match.distance < distance)) {
            words = match.wordsPresent;
            distance = match.distance;
          }
        }
        positions.length = 0;
        if (words === 0) words = 1;
        if (field.index.field.type === 'string[]') unique = words;
      }
      // prioritize_exact_match: a field made of exactly the query words, no typos, no prefixes.
      const verbatim = options.prioritizeExactMatch && cost === 0 && fm === fullMask && field.index.wordCounts[seq] === n ? 1 : 0;
      const fieldScore = (((Math.min(words, 31) * 32 + Math.min(unique, 31)) * 64 + (63 - cost)) * 128 + (100 - distance)) * 2 + verbatim;
      const bestScore = bestField < 0 ? -1 : (((Math.min(bestWords, 31) * 32 + Math.min(bestUnique, 31)) * 64 + (63 - cost)) * 128 + (100 - bestDistance)) * 2 + bestVerbatim;
      // The first field (in weight order) reaching the best score is the best field.
      if (fieldScore > bestScore) {
        bestField = f;
        bestWords = words;
        bestUnique = unique;
        bestDistance = distance;
        bestVerbatim = verbatim;
        bestWeight = field.weight;
      }
    }
    tokensMatched[seq] = popcount(m);
    candidateCost[seq] = cost;
    bestFieldTokens[seq] = bestWords;
    bestFieldUnique[seq] = bestUnique;
    bestFieldDistance[seq] = bestDistance;
    bestFieldVerbatim[seq] = bestVerbatim;
    bestFieldWeight[seq] = bestWeight;
    fieldsMatched[seq] = Math.min(matchedFields, 7);
    // Typesense's MAX_SCORE order: words matched; best field: words in window, distinct words,
    // cost, proximity, verbatim; its weight; number of fields matched.
    const fieldScore = (((Math.min(bestWords, 31) * 32 + Math.min(bestUnique, 31)) * 64 + (63 - cost)) * 128 + (100 - bestDistance)) * 2 + bestVerbatim;
    scores[seq] = ((queryLength * 2 ** 24 + fieldScore) * 256 + Math.min(bestWeight, 255)) * 8 + Math.min(matchedFields, 7);
    return multiWord;
  };

  const refineTop = options.refineTop;
  const needsProximity: number[] = [];
  const prioritizeExact = options.prioritizeExactMatch;
  // First pass, inline (the hot loop): scores with a field's words assumed adjacent — exact
  // unless a field holds two or more query words (then an upper bound, refined below).
  for (let i = 0, end = scratch.touchedCount; i < end; i++) {
    const seq = touched[i] as number;
    if (!accepts(seq, rounds)) continue;
    if (excluded.length > 0 && excluded[seq] === 1) continue;
    const m = tokenMask[seq] as number;
    const cost = Math.min(2 * (typoCost[seq] as number) + (prefixMatches[seq] as number), 63);
    let bestScore = -1;
    let bestWords = 0;
    let bestVerbatim = 0;
    let bestWeight = 0;
    let matchedFields = 0;
    let multiWord = false;
    for (let f = 0; f < fieldCount; f++) {
      const fm = fieldTokenMask[seq * fieldCount + f] as number;
      if (fm === 0) continue;
      matchedFields++;
      const field = fields[f] as QueryField;
      const words = popcount(fm);
      if (words > 1) multiWord = true;
      const verbatim = prioritizeExact && cost === 0 && fm === fullMask && field.index.wordCounts[seq] === n ? 1 : 0;
      // n words at distinct positions spread at least n - 1: the tightest bound before proximity.
      const fieldScore = (((Math.min(words, 31) * 32 + Math.min(words, 31)) * 64 + (63 - cost)) * 128 + (100 - (words - 1))) * 2 + verbatim;
      if (fieldScore > bestScore) {
        bestScore = fieldScore;
        bestWords = words;
        bestVerbatim = verbatim;
        bestWeight = field.weight;
      }
    }
    const matched = popcount(m);
    tokensMatched[seq] = matched;
    candidateCost[seq] = cost;
    bestFieldTokens[seq] = bestWords;
    bestFieldUnique[seq] = bestWords;
    bestFieldDistance[seq] = bestWords - 1;
    bestFieldVerbatim[seq] = bestVerbatim;
    bestFieldWeight[seq] = bestWeight;
    fieldsMatched[seq] = Math.min(matchedFields, 7);
    scores[seq] = ((Math.min(matched, 15) * 2 ** 24 + bestScore) * 256 + Math.min(bestWeight, 255)) * 8 + Math.min(matchedFields, 7);
    if (multiWord) needsProximity.push(seq);
    matchedIds[matchedCount++] = seq;
  }
  if (needsProximity.length > 0) {
    if (refineTop === undefined) for (const seq of needsProximity) scoreDocument(seq, true);
    else if (refineTop > 0) refineProximity(matchedIds.subarray(0, matchedCount), needsProximity, refineTop, scores, (seq) => scoreDocument(seq, true));
  }
  return {
    seqs: matchedIds.subarray(0, matchedCount),
    scores,
    tokensMatched,
    typoCost: candidateCost,
    bestFieldTokens,
    bestFieldUnique,
    bestFieldDistance,
    bestFieldVerbatim,
    bestFieldWeight,
    fieldsMatched,
    numTokens: n,
    matchedTerms,
  };
}
