import type { Collection, TextFieldIndex } from '../index/collection.js';
import { typoBudget } from '../text/osa-distance.js';
import { existingScratch, scratchFor, type MatchScratch } from './match-scratch.js';
import { proximityOf, WINDOW_SIZE } from './word-proximity.js';

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
  /**
   * Synonym score bit of the field score (Typesense's `synonym_score`): 1 for the query's own
   * words and for synonym matches unless `demote_synonym_match`, then 0. Default 1.
   */
  synonymScore?: 0 | 1;
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
   * order of criteria (see `matchText`) packed into 40 bits of a double.
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
  /** Typesense's synonym score bit of the best field, the same for every document of this match… */
  synonymScore: number;
  /** … unless given per document (a union of the query's and its synonyms' matches). */
  synonymScores?: Uint8Array;
}


/**
 * Packs Typesense's MAX_SCORE criteria into a sortable double (40 bits): words matched;
 * best field: words in window, distinct words, cost, proximity, verbatim, synonym score; its
 * weight; number of fields matched.
 */
export function packScore(tokensMatched: number, words: number, unique: number, cost: number, distance: number, verbatim: number, weight: number, fields: number, synonym = 1): number {
  return composeScore(tokensMatched, fieldScoreOf(words, unique, cost, distance, verbatim), synonym, weight, fields);
}

/** A field's score parts above the synonym bit, packed so that a larger number ranks first (24 bits). */
function fieldScoreOf(words: number, unique: number, cost: number, distance: number, verbatim: number): number {
  return (((Math.min(words, 31) * 32 + Math.min(unique, 31)) * 64 + (63 - Math.min(cost, 63))) * 128 + (100 - Math.min(distance, 100))) * 2 + verbatim;
}

/** The sortable score from the words matched, the best field's score and synonym bit, its weight and the fields matched. */
function composeScore(tokensMatched: number, fieldScore: number, synonym: number, weight: number, fields: number): number {
  return (((Math.min(tokensMatched, 15) * 2 ** 24 + fieldScore) * 2 + synonym) * 256 + Math.min(weight, 255)) * 8 + Math.min(fields, 7);
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Most query words whose typo candidates are searched as Typesense searches them: beyond
 * 30 words Typesense tries a single cost combination (`fuzzy_search_fields` in
 * `src/index.cpp`: `N = token_to_costs.size() > 30 ? 1 : …`), every word exact unless it has
 * no exact term at all (then its cheapest typo candidates). Here the words after the 30th must
 * match too (a filter), and the typo cascade and word proximity run over the first 30.
 */
export const TYPO_COMBINATION_MAX_WORDS = 30;

/**
 * Words that Typesense's drop-tokens rounds consider: the first 20 (`src/index.cpp`,
 * `orig_tokens_size = std::min<size_t>(orig_tokens.size(), 20)  // drop only upto N tokens`);
 * the words after them take no part in the reduced queries.
 */
export const DROP_TOKENS_MAX_WORDS = 20;

/**
 * Typesense's bound on the candidate combinations scored (`search_all_candidates` in
 * `src/index.cpp`: `combination_limit = (num_search_fields == 1 && prefixes[0]) ? max_candidates
 * : std::max<size_t>(Index::COMBINATION_MIN_LIMIT, max_candidates)`, `COMBINATION_MIN_LIMIT = 10`).
 */
const COMBINATION_MIN_LIMIT = 10;

/** How one pass of the cascade treats typos, prefixes and dropped words. */
interface CascadeSettings {
  /** The query word matched as a prefix too (Typesense: the query's last word), or -1. */
  prefixWord: number;
  /**
   * `cascade`: typo levels 1 and 2 while fewer than `typo_tokens_threshold` documents match;
   * `missing`: one combination, as Typesense beyond 30 words: only a word without any exact
   * term (or prefix expansion) gets typo candidates, its cheapest level.
   */
  typos: 'cascade' | 'missing';
  /** Leading words that drop rounds consider (0: no drop rounds). */
  dropWords: number;
  /**
   * False: documents must come from a drop round, not from all the words at once (Typesense's
   * drop rounds of a long query start by leaving out the 20th word). Default true.
   */
  wholeRound?: boolean;
  /** Per document, the cost of words matched outside this pass (a long query's words after the 30th). */
  baseCost?: Uint8Array;
}

/**
 * Typesense's matching cascade: every query word must match (AND); first
 * exact words and, for the last word, prefix expansions; typo variants
 * (1, then 2 edits, within the length budget) only while fewer than
 * `typo_tokens_threshold` documents match; then words are dropped from the
 * right (then from the left) while fewer than `drop_tokens_threshold` match.
 * A query of more than `TYPO_COMBINATION_MAX_WORDS` words is searched whole, with
 * typo candidates only for words that match nothing exactly, and then, while fewer than
 * `drop_tokens_threshold` documents match, by dropping words among its first
 * `DROP_TOKENS_MAX_WORDS` (as Typesense bounds the work of long queries).
 */
export function matchText(collection: Collection, options: TextMatchOptions): TextMatchResult {
  const n = options.words.length;
  if (n <= TYPO_COMBINATION_MAX_WORDS) return matchWords(collection, options, { prefixWord: n - 1, typos: 'cascade', dropWords: DROP_TOKENS_MAX_WORDS });
  return matchLongQuery(collection, options);
}

/** `matchText` for a query of more than `TYPO_COMBINATION_MAX_WORDS` words. */
function matchLongQuery(collection: Collection, options: TextMatchOptions): TextMatchResult {
  const { words } = options;
  const n = words.length;
  const head = words.slice(0, TYPO_COMBINATION_MAX_WORDS);
  const tail = words.slice(TYPO_COMBINATION_MAX_WORDS);
  // The whole query: the words after the 30th become a filter (every one must match), the
  // first 30 are matched and scored (exact, typos only where a word has no exact term).
  const tailDocuments = documentsWithEveryWord(collection, tail, options);
  let whole: SavedMatches | undefined;
  if (tailDocuments) {
    const result = matchWords(collection, { ...options, words: head, filter: tailDocuments.allowed, dropTokensThreshold: 0 }, { prefixWord: -1, typos: 'missing', dropWords: 0, baseCost: tailDocuments.cost });
    for (const seq of result.seqs) result.tokensMatched[seq] = Math.min(255, (result.tokensMatched[seq] as number) + tail.length);
    result.numTokens = n;
    if (result.seqs.length >= options.dropTokensThreshold) return result;
    whole = saveMatches(result);
  }
  // Too few: Typesense's drop rounds over the first 20 words (the query's last word, beyond
  // them, is no longer a prefix).
  const reduced = matchWords(collection, { ...options, words: words.slice(0, DROP_TOKENS_MAX_WORDS) }, { prefixWord: -1, typos: 'cascade', dropWords: DROP_TOKENS_MAX_WORDS, wholeRound: false });
  reduced.numTokens = n;
  return whole && whole.seqs.length > 0 ? mergeSaved(collection, reduced, whole) : reduced;
}

/** Score parts of a few matched documents, copied out of the reused scratch memory. */
interface SavedMatches {
  seqs: number[];
  parts: number[][];
  matchedTerms: Map<string, MatchedTerm>;
}

const PART_NAMES = ['scores', 'tokensMatched', 'typoCost', 'bestFieldTokens', 'bestFieldUnique', 'bestFieldDistance', 'bestFieldVerbatim', 'bestFieldWeight', 'fieldsMatched'] as const;

function saveMatches(result: TextMatchResult): SavedMatches {
  const seqs = Array.from(result.seqs);
  return { seqs, parts: seqs.map((seq) => PART_NAMES.map((name) => result[name][seq] as number)), matchedTerms: new Map(result.matchedTerms) };
}

/**
 * Adds the whole query's documents to the drop rounds' result, each keeping its better
 * score. Their entries are written into the scratch arrays and marked touched, so the next
 * query's reset clears them.
 */
function mergeSaved(collection: Collection, result: TextMatchResult, saved: SavedMatches): TextMatchResult {
  const scratch = existingScratch(collection);
  const present = new Set<number>(result.seqs);
  const added: number[] = [];
  saved.seqs.forEach((seq, i) => {
    const parts = saved.parts[i] as number[];
    if (present.has(seq) && (result.scores[seq] as number) >= (parts[0] as number)) return;
    if (!present.has(seq)) {
      added.push(seq);
      if (scratch && scratch.tokenMask[seq] === 0) scratch.touched[scratch.touchedCount++] = seq;
    }
    PART_NAMES.forEach((name, k) => {
      result[name][seq] = parts[k] as number;
    });
  });
  for (const [term, match] of saved.matchedTerms) {
    const previous = result.matchedTerms.get(term);
    if (!previous || previous.cost > match.cost) result.matchedTerms.set(term, match);
  }
  if (added.length === 0) return result;
  const seqs = new Int32Array(result.seqs.length + added.length);
  seqs.set(result.seqs);
  seqs.set(added, result.seqs.length);
  return { ...result, seqs };
}

/** Index of the first entry of `list` that is ≥ `seq`. */
function lowerBound(ids: Int32Array, length: number, seq: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as number) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Documents (allowed by the filter) that match every one of `words` in some searched field,
 * as the whole-query pass matches a word: its exact term, else its cheapest typo candidates;
 * the last word also by prefix expansion. Undefined when there are none; else the documents
 * and, per document, the cost of those words (2 per typo + 1 per prefix, the cheapest
 * candidate of each word). The rarest word's documents are checked against the others'
 * sorted posting lists, so a common word costs a binary search per surviving document, not a
 * walk over its list.
 */
function documentsWithEveryWord(collection: Collection, words: string[], options: TextMatchOptions): { allowed: Uint8Array; cost: Uint8Array } | undefined {
  const dictionary = collection.dictionary;
  const anyPrefix = options.fields.some((f) => f.prefix);
  const maxFieldTypos = Math.max(0, ...options.fields.map((f) => f.numTypos));
  type Lists = { ids: Int32Array; length: number; cost: number }[];
  const perWord: { lists: Lists; size: number }[] = [];
  const seenWords = new Set<string>();
  for (const [index, word] of words.entries()) {
    const last = index === words.length - 1 && anyPrefix;
    // A repeated word adds nothing to an AND (its cost is counted once here).
    if (!last && seenWords.has(word)) continue;
    seenWords.add(word);
    const terms: { termId: number; cost: number; prefix: boolean }[] = [];
    const exact = dictionary.lookup(word);
    if (exact !== undefined) terms.push({ termId: exact, cost: 0, prefix: false });
    if (last) for (const termId of dictionary.prefixExpansions(word, options.maxCandidates)) if (termId !== exact) terms.push({ termId, cost: 0, prefix: true });
    const budget = Math.min(typoBudget(word.length, options.minLen1Typo, options.minLen2Typo), maxFieldTypos);
    for (let cost = 1; terms.length === 0 && cost <= budget; cost++) {
      for (const candidate of dictionary.typoCandidates(word, cost, cost, false, options.maxCandidates)) terms.push({ termId: candidate.termId, cost, prefix: false });
      if (last) for (const candidate of dictionary.typoCandidates(word, cost, cost, true, options.maxCandidates)) terms.push({ termId: candidate.termId, cost, prefix: dictionary.termOf(candidate.termId).length > word.length + cost });
    }
    const lists: Lists = [];
    let size = 0;
    for (const term of terms) {
      for (const field of options.fields) {
        if ((term.prefix && !field.prefix) || term.cost > field.numTypos) continue;
        const list = field.index.postings[term.termId];
        if (!list || list.length === 0) continue;
        lists.push({ ids: list.ids, length: list.length, cost: 2 * term.cost + (term.prefix ? 1 : 0) });
        size += list.length;
      }
    }
    if (size === 0) return undefined;
    perWord.push({ lists, size });
  }
  perWord.sort((a, b) => a.size - b.size);
  const rarest = perWord[0];
  if (!rarest) return undefined;
  const filter = options.filter;
  const seen = new Set<number>();
  let survivors: number[] = [];
  for (const list of rarest.lists) {
    for (let i = 0; i < list.length; i++) {
      const seq = list.ids[i] as number;
      if ((filter && filter[seq] === 0) || seen.has(seq)) continue;
      seen.add(seq);
      survivors.push(seq);
    }
  }
  const costs = new Map<number, number>();
  // Per word, the cheaper check: a binary search per survivor in each list, or one walk over
  // the lists marking the survivors they hold (a word in most documents, many survivors).
  let held: Uint8Array | undefined;
  for (let w = 0; w < perWord.length && survivors.length > 0; w++) {
    const { lists, size } = perWord[w] as { lists: Lists; size: number };
    if (w > 0 && survivors.length * lists.length * 16 > size) {
      held ??= new Uint8Array(collection.seqLimit);
      const cheapest = new Map<number, number>();
      for (const seq of survivors) held[seq] = 1;
      for (const list of lists) {
        for (let i = 0; i < list.length; i++) {
          const seq = list.ids[i] as number;
          if (held[seq] !== 1) continue;
          const previous = cheapest.get(seq);
          if (previous === undefined || list.cost < previous) cheapest.set(seq, list.cost);
        }
      }
      for (const seq of survivors) held[seq] = 0;
      survivors = survivors.filter((seq) => {
        const cost = cheapest.get(seq);
        if (cost === undefined) return false;
        costs.set(seq, (costs.get(seq) ?? 0) + cost);
        return true;
      });
      continue;
    }
    survivors = survivors.filter((seq) => {
      let cheapest = Number.POSITIVE_INFINITY;
      for (const list of lists) {
        const at = lowerBound(list.ids, list.length, seq);
        if (at < list.length && list.ids[at] === seq && list.cost < cheapest) cheapest = list.cost;
      }
      if (!Number.isFinite(cheapest)) return false;
      costs.set(seq, (costs.get(seq) ?? 0) + cheapest);
      return true;
    });
  }
  if (survivors.length === 0) return undefined;
  const allowed = new Uint8Array(collection.seqLimit);
  const cost = new Uint8Array(collection.seqLimit);
  for (const seq of survivors) {
    allowed[seq] = 1;
    cost[seq] = Math.min(costs.get(seq) ?? 0, 255);
  }
  return { allowed, cost };
}

/** A round of the cascade: documents must match all words in `mask`, each within `maxCost` typos. */
type Round = { mask: number; maxCost: number };

/**
 * One pass of the cascade in progress: the query, the reused per-document memory (`scratch`:
 * which words each document matched, at what cost, in which fields) and the candidate terms
 * applied so far. The steps of `matchWords` read and fill it.
 */
interface WordMatch {
  words: string[];
  fields: QueryField[];
  filter: Uint8Array | undefined;
  fieldCount: number;
  /** Query words. */
  n: number;
  /** Slots per document in the per-word arrays (at least 1). */
  n0: number;
  /** Every query word's bit. */
  fullMask: number;
  options: TextMatchOptions;
  scratch: MatchScratch;
  dictionary: Collection['dictionary'];
  /** Terms applied per query word, in order; a document's choice for the word indexes this list. */
  appliedTerms: number[][];
  /** Per applied term: its typos… */
  appliedTypos: number[][];
  /** … and whether it counts as a prefix (for combinations and fields). */
  appliedPrefix: boolean[][];
  matchedTerms: Map<string, MatchedTerm>;
  synonymScore: number;
  /** Per document, the cost of words matched outside this pass. */
  baseCost: Uint8Array | undefined;
  /** Highest typo level applied so far: every applied candidate costs at most this. */
  level: number;
  /** Combinations of held candidates scored per document at most. */
  comboLimit: number;
  /** Query word ids wanted per field, reused across documents. */
  wanted: Int32Array;
  /** Positions per query word per array element, reused across documents. */
  positions: number[][][];
}

/** One pass of the cascade over at most 30 words (one bit per word), in named steps. */
function matchWords(collection: Collection, options: TextMatchOptions, settings: CascadeSettings): TextMatchResult {
  const match = startWordMatch(collection, options, settings);
  const exactlyFound = applyExactWords(match, settings.prefixWord);
  let { rounds, found } = settings.typos === 'missing' ? applyMissingWordTypos(match, exactlyFound) : runTypoCascade(match, settings.prefixWord);
  if (settings.wholeRound === false) {
    // The typo candidates stay applied; only the drop rounds below may accept documents.
    rounds = [];
    found = 0;
  }
  rounds = runDropRounds(match, rounds, found, settings.dropWords);
  const excluded = excludedDocuments(collection, match);
  const { matchedCount, needsProximity } = scoreBounds(match, rounds, excluded);
  refineProximityScores(match, matchedCount, needsProximity);
  return wordMatchResult(match, matchedCount);
}

/** The pass's state, on the collection's reused scratch memory. */
function startWordMatch(collection: Collection, options: TextMatchOptions, settings: CascadeSettings): WordMatch {
  const { words, fields, filter } = options;
  const fieldCount = fields.length;
  const n = words.length;
  const n0 = Math.max(n, 1);
  return {
    words,
    fields,
    filter,
    fieldCount,
    n,
    n0,
    fullMask: n >= 32 ? 0xffffffff : (1 << n) - 1,
    options,
    scratch: scratchFor(collection, collection.seqLimit, n0, fieldCount),
    dictionary: collection.dictionary,
    appliedTerms: Array.from({ length: n0 }, () => []),
    appliedTypos: Array.from({ length: n0 }, () => []),
    appliedPrefix: Array.from({ length: n0 }, () => []),
    matchedTerms: new Map<string, MatchedTerm>(),
    synonymScore: options.synonymScore ?? 1,
    baseCost: settings.baseCost,
    level: 0,
    comboLimit: fieldCount === 1 && (fields[0] as QueryField).prefix ? Math.max(1, options.maxCandidates) : Math.max(COMBINATION_MIN_LIMIT, options.maxCandidates),
    wanted: new Int32Array(n0),
    positions: [],
  };
}

/**
 * Applies a candidate term of query word `token` at typo `cost`. `prefixWalk`: found as a
 * prefix (expansion or typo prefix). Typesense counts such a candidate as a prefix match
 * only when it is longer than the word plus its typos (`next_suggestion2` in
 * `src/index.cpp`: `is_prefix_searched = prefix_search && candidate.size() > token_size +
 * typo_cost`), and only then keeps it out of fields without `prefix`: `chargeit` for
 * `charger` at 1 typo is a whole-word match (cost 2), `chargehub` a typo prefix (cost 3).
 */
function applyTerm(match: WordMatch, token: number, termId: number, cost: number, prefixWalk: boolean): void {
  const { words, fields, filter, fieldCount, n, n0, scratch, appliedTerms, appliedTypos, appliedPrefix, matchedTerms } = match;
  const { tokenMask, typoCost, fieldTokenMask, touched, tokenChoice, heldCandidates, fieldUnionMask, multiCandidate, tokenCost } = scratch;
  const prefixMatches = scratch.prefixOnly;
  const term = match.dictionary.termOf(termId);
  const prefixOnly = prefixWalk && term.length > (words[token] as string).length + cost;
  const bit = 1 << token;
  let used = false;
  const applied = appliedTerms[token] as number[];
  let choice = applied.indexOf(termId);
  if (choice < 0) {
    choice = applied.length;
    applied.push(termId);
    (appliedTypos[token] as number[]).push(cost);
    (appliedPrefix[token] as boolean[]).push(prefixOnly);
  }
  if (choice > 254) choice = 255;
  const heldBit = choice < 32 ? 1 << choice : 0;
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
      const slot = seq * n0 + token;
      if ((m & bit) === 0) {
        tokenMask[seq] = m | bit;
        typoCost[seq] = (typoCost[seq] as number) + cost;
        if (prefixOnly) prefixMatches[seq] = (prefixMatches[seq] as number) + 1;
        tokenCost[slot] = cost;
        tokenChoice[slot] = choice;
      } else if (tokenChoice[slot] !== choice) {
        // Another candidate of the same word: Typesense scores each combination of candidate
        // words on its own, so it does not add fields to the first choice's score (`chargers`
        // after `charger`); the document's combinations are scored below and the best kept.
        // With one query word a combination is one candidate: a costlier one never scores
        // higher, an equally cheap one only through a heavier field or more fields (the last
        // two criteria). Not scored: it cost a one-word prefix query ~80% more CPU at 100k
        // documents (README, "Known differences").
        if (n > 1) {
          heldCandidates[slot] = (heldCandidates[slot] as number) | heldBit;
          fieldUnionMask[seq * fieldCount + f] = (fieldUnionMask[seq * fieldCount + f] as number) | bit;
          if (multiCandidate[seq] === 0) {
            multiCandidate[seq] = 1;
            scratch.flagged[scratch.flaggedCount++] = seq;
          }
        }
        continue;
      }
      fieldTokenMask[seq * fieldCount + f] = (fieldTokenMask[seq * fieldCount + f] as number) | bit;
    }
  }
  if (used) {
    const previous = matchedTerms.get(term);
    if (!previous || previous.cost > cost) matchedTerms.set(term, { token, cost, prefix: prefixOnly, queryLength: (words[token] as string).length });
  }
}

/** Whether document `seq` passes one of the cascade's `rounds`. */
function accepts(match: WordMatch, seq: number, rounds: Round[]): boolean {
  const { tokenMask, tokenCost } = match.scratch;
  const { n, n0, level } = match;
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
}

/** Documents touched so far that pass one of `rounds`. */
function countMatching(match: WordMatch, rounds: Round[]): number {
  const { touched } = match.scratch;
  let count = 0;
  // Indexed loops over the touched documents: an iterator allocated a result object per document.
  for (let i = 0, end = match.scratch.touchedCount; i < end; i++) if (accepts(match, touched[i] as number, rounds)) count++;
  return count;
}

/** Level 0: exact words and prefix expansions of the prefix word. Returns which words found a term. */
function applyExactWords(match: WordMatch, prefixWord: number): Uint8Array {
  const { words, dictionary, options } = match;
  const anyPrefix = match.fields.some((f) => f.prefix);
  const exactlyFound = new Uint8Array(match.n0);
  words.forEach((word, token) => {
    const exact = dictionary.lookup(word);
    if (exact !== undefined) {
      applyTerm(match, token, exact, 0, false);
      exactlyFound[token] = 1;
    }
    if (token === prefixWord && anyPrefix) {
      for (const termId of dictionary.prefixExpansions(word, options.maxCandidates)) {
        if (termId !== exact) {
          applyTerm(match, token, termId, 0, true);
          exactlyFound[token] = 1;
        }
      }
    }
  });
  return exactlyFound;
}

/** The highest typo level the searched fields allow. */
function maxFieldTyposOf(match: WordMatch): number {
  return Math.max(0, ...match.fields.map((f) => f.numTypos));
}

/** `typos: 'missing'`: one combination, a word without exact terms takes its cheapest typo level. */
function applyMissingWordTypos(match: WordMatch, exactlyFound: Uint8Array): { rounds: Round[]; found: number } {
  const { options, dictionary } = match;
  const maxFieldTypos = maxFieldTyposOf(match);
  match.words.forEach((word, token) => {
    if (exactlyFound[token] === 1) return;
    const budget = Math.min(typoBudget(word.length, options.minLen1Typo, options.minLen2Typo), maxFieldTypos);
    for (let cost = 1; cost <= budget; cost++) {
      const candidates = dictionary.typoCandidates(word, cost, cost, false, options.maxCandidates);
      for (const candidate of candidates) applyTerm(match, token, candidate.termId, cost, false);
      if (candidates.length > 0) break;
    }
  });
  match.level = 2;
  const rounds = [{ mask: match.fullMask, maxCost: 2 }];
  return { rounds, found: countMatching(match, rounds) };
}

/** `typos: 'cascade'`: typo levels 1, then 2, while fewer than `typoTokensThreshold` documents match. */
function runTypoCascade(match: WordMatch, prefixWord: number): { rounds: Round[]; found: number } {
  const { options, dictionary } = match;
  const anyPrefix = match.fields.some((f) => f.prefix);
  const maxFieldTypos = maxFieldTyposOf(match);
  let rounds: Round[] = [{ mask: match.fullMask, maxCost: 0 }];
  let found = countMatching(match, rounds);
  while (match.level < 2 && found < options.typoTokensThreshold) {
    match.level++;
    const current = match.level;
    match.words.forEach((word, token) => {
      const budget = Math.min(typoBudget(word.length, options.minLen1Typo, options.minLen2Typo), maxFieldTypos);
      if (budget < current) return;
      for (const candidate of dictionary.typoCandidates(word, current, current, false, options.maxCandidates)) {
        applyTerm(match, token, candidate.termId, current, false);
      }
      if (token === prefixWord && anyPrefix) {
        for (const candidate of dictionary.typoCandidates(word, current, current, true, options.maxCandidates)) {
          applyTerm(match, token, candidate.termId, current, true);
        }
      }
    });
    rounds = [{ mask: match.fullMask, maxCost: current }];
    found = countMatching(match, rounds);
  }
  return { rounds, found };
}

/**
 * While fewer than `dropTokensThreshold` documents match: drop words from the right, then from
 * the left (among the first `dropWordsSetting`); each reduced query runs its own typo cascade.
 * Returns the rounds a document may pass.
 */
function runDropRounds(match: WordMatch, rounds: Round[], found: number, dropWordsSetting: number): Round[] {
  const { options, level } = match;
  const dropWords = Math.min(match.n, dropWordsSetting);
  if (found >= options.dropTokensThreshold || dropWords <= 1) return rounds;
  const dropMask = dropWords >= 32 ? 0xffffffff : (1 << dropWords) - 1;
  const drops: number[] = [];
  for (let k = dropWords - 1; k >= 1; k--) drops.push((1 << k) - 1);
  for (let k = dropWords - 1; k >= 1; k--) drops.push(dropMask & ~((1 << (dropWords - k)) - 1));
  for (const mask of drops) {
    for (let cost = 0; cost <= level; cost++) {
      const attempt = [...rounds, { mask, maxCost: cost }];
      const attemptFound = countMatching(match, attempt);
      if (attemptFound >= options.typoTokensThreshold || cost === level) {
        rounds = attempt;
        found = attemptFound;
        break;
      }
    }
    if (found >= options.dropTokensThreshold) break;
  }
  return rounds;
}

/** Documents holding an excluded word (`-word`) in a searched field (empty when none is excluded). */
function excludedDocuments(collection: Collection, match: WordMatch): Uint8Array {
  const { excludedWords } = match.options;
  const excluded = new Uint8Array(excludedWords.length > 0 ? collection.seqLimit : 0);
  for (const word of excludedWords) {
    const termId = match.dictionary.lookup(word);
    if (termId === undefined) continue;
    for (const field of match.fields) {
      const list = field.index.postings[termId];
      if (list) for (let i = 0; i < list.length; i++) excluded[list.ids[i] as number] = 1;
    }
  }
  return excluded;
}

/**
 * Typesense's verbatim flag of a field (`Match` in `include/match_score.h`,
 * `score_results2` in `src/index.cpp`): with two or more query words in the field, the
 * field holds exactly those words, each once, in any order (`exact_match` compares
 * offsets, not the query's order), whatever their typos; with one, the query is that one
 * word, matched without typo or prefix, and is the whole field.
 */
function verbatimOf(match: WordMatch, seq: number, field: QueryField, fieldWords: number, cost: number): number {
  // The cheap conditions first: the word count is a random read per document and field.
  if (!match.options.prioritizeExactMatch) return 0;
  if (fieldWords >= 2) return field.index.wordCounts[seq] === fieldWords ? 1 : 0;
  return match.n === 1 && cost === 0 && field.index.wordCounts[seq] === 1 ? 1 : 0;
}

/**
 * The verbatim bit's bound over a document's combinations: a combination puts between 2 and
 * `unionWords` query words in the field (or one, for a one-word query at the cheapest cost).
 */
function verbatimBound(match: WordMatch, seq: number, field: QueryField, unionWords: number, cheapestCost: number): number {
  if (!match.options.prioritizeExactMatch) return 0;
  const count = field.index.wordCounts[seq] as number;
  if (count >= 2 && count <= unionWords) return 1;
  return match.n === 1 && cheapestCost === 0 && count === 1 ? 1 : 0;
}

/** Typesense's candidate cost of a document's first choices: 2 per typo, 1 per word matched only as a prefix. */
function candidateCostOf(match: WordMatch, seq: number): number {
  const { typoCost, prefixOnly } = match.scratch;
  const baseCost = match.baseCost;
  return Math.min(2 * (typoCost[seq] as number) + (prefixOnly[seq] as number) + (baseCost ? (baseCost[seq] as number) : 0), 63);
}

/**
 * First pass over the touched documents, inline (the hot loop): each accepted document's
 * score with a field's words assumed adjacent — exact unless a field holds two or more query
 * words (then an upper bound, refined by `refineProximityScores`). Fills `scratch.matched`.
 */
function scoreBounds(match: WordMatch, rounds: Round[], excluded: Uint8Array): { matchedCount: number; needsProximity: number[] } {
  const { fields, fieldCount, scratch, synonymScore } = match;
  const { touched, tokenMask, multiCandidate, fieldUnionMask, fieldTokenMask } = scratch;
  const { scores, tokensMatched, bestFieldTokens, bestFieldWeight, fieldsMatched, bestFieldUnique, bestFieldDistance, bestFieldVerbatim } = scratch;
  const candidateCost = scratch.cost;
  if (scratch.matched.length < scratch.touchedCount) scratch.matched = new Int32Array(Math.ceil(scratch.touchedCount * 1.25));
  const matchedIds = scratch.matched;
  let matchedCount = 0;
  const needsProximity: number[] = [];
  for (let i = 0, end = scratch.touchedCount; i < end; i++) {
    const seq = touched[i] as number;
    if (!accepts(match, seq, rounds)) continue;
    if (excluded.length > 0 && excluded[seq] === 1) continue;
    const m = tokenMask[seq] as number;
    const cost = candidateCostOf(match, seq);
    let bestScore = -1;
    let bestWords = 0;
    let bestUnique = 0;
    let bestVerbatim = 0;
    let bestWeight = 0;
    let matchedFields = 0;
    // A document holding several candidates of a word: its bound takes every held candidate's
    // fields and the verbatim bit, and its combinations are scored when it is refined.
    const several = multiCandidate[seq] === 1;
    let multiWord = several;
    for (let f = 0; f < fieldCount; f++) {
      const fm = several ? (fieldUnionMask[seq * fieldCount + f] as number) | (fieldTokenMask[seq * fieldCount + f] as number) : (fieldTokenMask[seq * fieldCount + f] as number);
      if (fm === 0) continue;
      matchedFields++;
      const field = fields[f] as QueryField;
      const words = popcount(fm);
      if (words > 1) multiWord = true;
      const verbatim = several ? verbatimBound(match, seq, field, words, cost) : verbatimOf(match, seq, field, words, cost);
      // At most WINDOW_SIZE words are in the window, and n words at distinct positions spread at
      // least n - 1: the tightest bound before proximity (an array's distinct words are its window's).
      const inWindow = Math.min(words, WINDOW_SIZE);
      const unique = field.index.field.type === 'string[]' ? inWindow : words;
      const fieldScore = fieldScoreOf(inWindow, unique, cost, inWindow - 1, verbatim);
      if (fieldScore > bestScore) {
        bestScore = fieldScore;
        bestWords = inWindow;
        bestUnique = unique;
        bestVerbatim = verbatim;
        bestWeight = field.weight;
      }
    }
    const matched = popcount(m);
    tokensMatched[seq] = matched;
    candidateCost[seq] = cost;
    bestFieldTokens[seq] = bestWords;
    bestFieldUnique[seq] = bestUnique;
    bestFieldDistance[seq] = bestWords - 1;
    bestFieldVerbatim[seq] = bestVerbatim;
    bestFieldWeight[seq] = bestWeight;
    fieldsMatched[seq] = Math.min(matchedFields, 7);
    scores[seq] = composeScore(matched, bestScore, synonymScore, bestWeight, matchedFields);
    if (multiWord) needsProximity.push(seq);
    matchedIds[matchedCount++] = seq;
  }
  return { matchedCount, needsProximity };
}

/** Exact scores (with word proximity) for the documents whose bound needs it: all, or those that can reach the top `refineTop`. */
function refineProximityScores(match: WordMatch, matchedCount: number, needsProximity: number[]): void {
  if (needsProximity.length === 0) return;
  const refineTop = match.options.refineTop;
  if (refineTop === undefined) for (const seq of needsProximity) scoreDocument(match, seq);
  else if (refineTop > 0) refineProximity(match.scratch.matched.subarray(0, matchedCount), needsProximity, refineTop, match.scratch.scores, (seq) => scoreDocument(match, seq));
}

/** Writes a document's score parts (`scratch`) and its packed score. */
function writeScore(match: WordMatch, seq: number, parts: { tokens: number; cost: number; words: number; unique: number; distance: number; verbatim: number; weight: number; fields: number }, score: number): void {
  const { scratch } = match;
  scratch.tokensMatched[seq] = parts.tokens;
  scratch.cost[seq] = parts.cost;
  scratch.bestFieldTokens[seq] = parts.words;
  scratch.bestFieldUnique[seq] = parts.unique;
  scratch.bestFieldDistance[seq] = parts.distance;
  scratch.bestFieldVerbatim[seq] = parts.verbatim;
  scratch.bestFieldWeight[seq] = parts.weight;
  scratch.fieldsMatched[seq] = Math.min(parts.fields, 7);
  scratch.scores[seq] = score;
}

/**
 * Scores one document exactly, with the word proximity of each field that holds two or more
 * query words (the best array element wins); a document holding several candidates of a word
 * is scored by its combinations (`scoreCombinations`).
 */
function scoreDocument(match: WordMatch, seq: number): void {
  if (match.scratch.multiCandidate[seq] === 1) {
    scoreCombinations(match, seq);
    return;
  }
  const { fields, fieldCount, n, n0, appliedTerms, wanted, positions } = match;
  const { tokenMask, fieldTokenMask, tokenChoice } = match.scratch;
  const m = tokenMask[seq] as number;
  const queryLength = Math.min(popcount(m), 15);
  const cost = candidateCostOf(match, seq);
  let bestField = -1;
  let bestWords = 0;
  let bestUnique = 0;
  let bestDistance = 0;
  let bestVerbatim = 0;
  let bestWeight = 0;
  let matchedFields = 0;
  for (let f = 0; f < fieldCount; f++) {
    const fm = fieldTokenMask[seq * fieldCount + f] as number;
    if (fm === 0) continue;
    matchedFields++;
    const field = fields[f] as QueryField;
    let unique = popcount(fm);
    let words = unique;
    let distance = 0;
    const verbatim = verbatimOf(match, seq, field, unique, cost);
    const boundHere = fieldScoreOf(Math.min(unique, WINDOW_SIZE), unique, cost, Math.min(unique, WINDOW_SIZE) - 1, verbatim);
    const bestSoFar = bestField < 0 ? -1 : fieldScoreOf(bestWords, bestUnique, cost, bestDistance, bestVerbatim);
    // A field whose best possible score cannot beat the best field so far needs no proximity.
    if (boundHere <= bestSoFar) continue;
    if (unique > 1) {
      // Word proximity from the stored word sequence: the best array element wins.
      for (let t = 0; t < n; t++) wanted[t] = (fm & (1 << t)) !== 0 ? ((appliedTerms[t] as number[])[tokenChoice[seq * n0 + t] as number] ?? -1) : -1;
      field.index.sequences.collectPositions(seq, wanted, n, positions);
      words = 0;
      distance = 0;
      for (const lists of positions) {
        if (!lists) continue;
        const proximity = proximityOf(lists.filter((list) => list !== undefined && list.length > 0));
        if (proximity.wordsPresent > words || (proximity.wordsPresent === words && proximity.distance < distance)) {
          words = proximity.wordsPresent;
          distance = proximity.distance;
        }
      }
      positions.length = 0;
      if (words === 0) words = 1;
      if (field.index.field.type === 'string[]') unique = words;
    }
    const fieldScore = fieldScoreOf(words, unique, cost, distance, verbatim);
    // The first field (in weight order) reaching the best score is the best field.
    if (fieldScore > bestSoFar) {
      bestField = f;
      bestWords = words;
      bestUnique = unique;
      bestDistance = distance;
      bestVerbatim = verbatim;
      bestWeight = field.weight;
    }
  }
  // Typesense's MAX_SCORE order: words matched; best field: words in window, distinct words,
  // cost, proximity, verbatim, synonym score; its weight; number of fields matched.
  const score = composeScore(queryLength, fieldScoreOf(bestWords, bestUnique, cost, bestDistance, bestVerbatim), match.synonymScore, bestWeight, matchedFields);
  writeScore(match, seq, { tokens: popcount(m), cost, words: bestWords, unique: bestUnique, distance: bestDistance, verbatim: bestVerbatim, weight: bestWeight, fields: matchedFields }, score);
}

/** A document's candidates per matched word, and the slots their positions are collected in. */
interface HeldCandidates {
  /** The query words the document matched. */
  present: number[];
  /** Per present word: the applied-term choices the document holds. */
  choices: number[][];
  /** Per query word: the position slot of each of its choices. */
  slotOf: number[][];
  /** Per slot: its term id. */
  slotTerms: number[];
}

/** The candidates document `seq` holds for each word of `m`. */
function heldCandidatesOf(match: WordMatch, seq: number, m: number): HeldCandidates {
  const { n, n0, appliedTerms } = match;
  const { tokenChoice, heldCandidates } = match.scratch;
  const held: HeldCandidates = { present: [], choices: [], slotOf: [], slotTerms: [] };
  for (let t = 0; t < n; t++) {
    if ((m & (1 << t)) === 0) continue;
    const first = tokenChoice[seq * n0 + t] as number;
    const heldMask = (heldCandidates[seq * n0 + t] as number) | (first < 32 ? 1 << first : 0);
    const list: number[] = [];
    for (let c = 0; c < 32; c++) if (((heldMask >>> c) & 1) === 1) list.push(c);
    if (list.length === 0) list.push(tokenChoice[seq * n0 + t] as number);
    held.present.push(t);
    held.choices.push(list);
    held.slotOf[t] = list.map((c) => {
      held.slotTerms.push((appliedTerms[t] as number[])[c] ?? -1);
      return held.slotTerms.length - 1;
    });
  }
  return held;
}

/**
 * Scores a document that holds several candidates of some query word as Typesense does:
 * each combination of candidate words (one per query word) is scored on its own — cost,
 * fields holding its words, proximity, verbatim — and the best is kept (`search_all_candidates`
 * → `search_across_fields` → `compute_aggregated_score`, the top-k keeping a document's best).
 * At most `comboLimit` combinations of the candidates the document holds, enumerated as
 * `next_suggestion2` does (the first word's candidate changes fastest).
 */
function scoreCombinations(match: WordMatch, seq: number): void {
  const { fields, fieldCount, appliedTypos, appliedPrefix, baseCost, comboLimit } = match;
  const { tokenMask, fieldUnionMask, fieldTokenMask } = match.scratch;
  const m = tokenMask[seq] as number;
  if (popcount(m) === 1) {
    scoreSingleWordCandidates(match, seq, m);
    return;
  }
  const { present, choices, slotOf, slotTerms } = heldCandidatesOf(match, seq, m);
  // Positions of every slot, collected once per field.
  const wantedSlots = Int32Array.from(slotTerms);
  const fieldPositions: (number[][][] | undefined)[] = [];
  for (let f = 0; f < fieldCount; f++) {
    if (((fieldUnionMask[seq * fieldCount + f] as number) | (fieldTokenMask[seq * fieldCount + f] as number)) === 0) continue;
    const out: number[][][] = [];
    (fields[f] as QueryField).index.sequences.collectPositions(seq, wantedSlots, wantedSlots.length, out);
    fieldPositions[f] = out;
  }
  const extra = baseCost ? (baseCost[seq] as number) : 0;
  let bestScore = -1;
  let best = { cost: 0, words: 0, unique: 0, distance: 0, verbatim: 0, weight: 0, fields: 0 };
  const index = new Array<number>(present.length).fill(0);
  for (let k = 0; k < comboLimit; k++) {
    // Decode combination k: the first word's candidate changes fastest.
    let rest = k;
    for (let i = 0; i < present.length; i++) {
      const size = (choices[i] as number[]).length;
      index[i] = rest % size;
      rest = Math.floor(rest / size);
    }
    if (rest > 0) break;
    let typos = 0;
    let prefixes = 0;
    for (let i = 0; i < present.length; i++) {
      const t = present[i] as number;
      const c = (choices[i] as number[])[index[i] as number] as number;
      typos += (appliedTypos[t] as number[])[c] ?? 0;
      prefixes += (appliedPrefix[t] as boolean[])[c] ? 1 : 0;
    }
    const cost = Math.min(2 * typos + prefixes + extra, 63);
    let fieldBest = -1;
    let parts = { words: 0, unique: 0, distance: 0, verbatim: 0, weight: 0 };
    let matchedFields = 0;
    for (let f = 0; f < fieldCount; f++) {
      const elements = fieldPositions[f];
      if (!elements) continue;
      const field = fields[f] as QueryField;
      let words = 0;
      let distance = 0;
      let unique = 0;
      for (const element of elements) {
        if (!element) continue;
        const lists: number[][] = [];
        for (let i = 0; i < present.length; i++) {
          const t = present[i] as number;
          const c = (choices[i] as number[])[index[i] as number] as number;
          if ((appliedPrefix[t] as boolean[])[c] && !field.prefix) continue;
          if (((appliedTypos[t] as number[])[c] ?? 0) > field.numTypos) continue;
          const list = element[(slotOf[t] as number[])[index[i] as number] as number];
          if (list && list.length > 0) lists.push(list);
        }
        if (lists.length === 0) continue;
        const proximity = lists.length > 1 ? proximityOf(lists) : { wordsPresent: 1, distance: 0 };
        if (lists.length > unique) unique = lists.length;
        if (proximity.wordsPresent > words || (proximity.wordsPresent === words && proximity.distance < distance)) {
          words = proximity.wordsPresent;
          distance = proximity.distance;
        }
      }
      if (words === 0) continue;
      matchedFields++;
      if (field.index.field.type === 'string[]') unique = words;
      const verbatim = verbatimOf(match, seq, field, unique, cost);
      const fieldScore = fieldScoreOf(words, unique, cost, distance, verbatim);
      if (fieldScore > fieldBest) {
        fieldBest = fieldScore;
        parts = { words, unique, distance, verbatim, weight: field.weight };
      }
    }
    if (fieldBest < 0) continue;
    const score = composeScore(popcount(m), fieldBest, match.synonymScore, parts.weight, matchedFields);
    if (score > bestScore) {
      bestScore = score;
      best = { cost, ...parts, fields: matchedFields };
    }
  }
  if (bestScore < 0) return;
  writeScore(match, seq, { tokens: popcount(m), ...best }, bestScore);
}

/**
 * `scoreCombinations` for a document matching one query word: each held candidate is one
 * combination; its fields come from the posting lists (no word positions needed: one word
 * has no proximity).
 */
function scoreSingleWordCandidates(match: WordMatch, seq: number, m: number): void {
  const { fields, fieldCount, n0, appliedTerms, appliedTypos, appliedPrefix, baseCost, comboLimit } = match;
  const { tokenChoice, heldCandidates } = match.scratch;
  const t = 31 - Math.clz32(m);
  const first = tokenChoice[seq * n0 + t] as number;
  const held = (heldCandidates[seq * n0 + t] as number) | (first < 32 ? 1 << first : 0);
  const extra = baseCost ? (baseCost[seq] as number) : 0;
  let bestScore = -1;
  let best = { cost: 0, verbatim: 0, weight: 0, fields: 0 };
  for (let c = 0, k = 0; c < 32 && k < comboLimit; c++) {
    if (((held >>> c) & 1) === 0) continue;
    k++;
    const termId = (appliedTerms[t] as number[])[c] as number;
    const typos = (appliedTypos[t] as number[])[c] ?? 0;
    const prefix = (appliedPrefix[t] as boolean[])[c] ?? false;
    const cost = Math.min(2 * typos + (prefix ? 1 : 0) + extra, 63);
    let fieldBest = -1;
    let weight = 0;
    let verbatimBest = 0;
    let matchedFields = 0;
    for (let f = 0; f < fieldCount; f++) {
      const field = fields[f] as QueryField;
      if ((prefix && !field.prefix) || typos > field.numTypos) continue;
      const list = field.index.postings[termId];
      if (!list) continue;
      const at = lowerBound(list.ids, list.length, seq);
      if (at >= list.length || list.ids[at] !== seq) continue;
      matchedFields++;
      const verbatim = verbatimOf(match, seq, field, 1, cost);
      const fieldScore = fieldScoreOf(1, 1, cost, 0, verbatim);
      if (fieldScore > fieldBest) {
        fieldBest = fieldScore;
        weight = field.weight;
        verbatimBest = verbatim;
      }
    }
    if (fieldBest < 0) continue;
    const score = composeScore(1, fieldBest, match.synonymScore, weight, matchedFields);
    if (score > bestScore) {
      bestScore = score;
      best = { cost, verbatim: verbatimBest, weight, fields: matchedFields };
    }
  }
  if (bestScore < 0) return;
  writeScore(match, seq, { tokens: 1, cost: best.cost, words: 1, unique: 1, distance: 0, verbatim: best.verbatim, weight: best.weight, fields: best.fields }, bestScore);
}

/** The pass's result: views into the scratch memory for the matched documents. */
function wordMatchResult(match: WordMatch, matchedCount: number): TextMatchResult {
  const { scratch } = match;
  return {
    seqs: scratch.matched.subarray(0, matchedCount),
    scores: scratch.scores,
    tokensMatched: scratch.tokensMatched,
    typoCost: scratch.cost,
    bestFieldTokens: scratch.bestFieldTokens,
    bestFieldUnique: scratch.bestFieldUnique,
    bestFieldDistance: scratch.bestFieldDistance,
    bestFieldVerbatim: scratch.bestFieldVerbatim,
    bestFieldWeight: scratch.bestFieldWeight,
    fieldsMatched: scratch.fieldsMatched,
    numTokens: match.n,
    matchedTerms: match.matchedTerms,
    synonymScore: match.synonymScore,
  };
}
