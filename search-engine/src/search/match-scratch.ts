import type { Collection } from '../index/collection.js';

/**
 * Per-collection work arrays, reused between queries (a search runs
 * synchronously to the end before the next starts), so a query does not
 * allocate megabytes of typed arrays at 100k documents. Only the entries of
 * the previous query's touched documents are cleared.
 */
export class MatchScratch {
  tokenMask: Uint32Array;
  typoCost: Uint8Array;
  /** Words a document matched only through a prefix expansion (ranked below whole-word matches). */
  prefixOnly: Uint8Array;
  tokenCost: Uint8Array;
  /**
   * Per (document, query word): which of the word's applied terms first matched it (index
   * into the query's list of applied terms per word; 255 = beyond the list). One byte keeps
   * this as cache-friendly as `tokenCost`.
   */
  tokenChoice: Uint8Array;
  fieldTokenMask: Uint32Array;
  /**
   * Per (document, query word): bit c set when the document holds the word's applied candidate
   * c (c < 32) besides its first choice (`tokenChoice`), in a field that may match it: the
   * candidate combinations scored per document. Written only for `flagged` documents.
   */
  heldCandidates: Uint32Array;
  /** Per (document, field): query words another held candidate of which is in the field (the first choices are in `fieldTokenMask`). */
  fieldUnionMask: Uint32Array;
  /** 1 when the document holds two or more candidates of some query word (its combinations are scored). */
  multiCandidate: Uint8Array;
  /**
   * The documents with `multiCandidate` set, `flagged[0 … flaggedCount)`: only their entries of
   * the three arrays above are written, so only theirs are cleared (most queries flag few).
   */
  flagged: Int32Array;
  flaggedCount = 0;
  scores: Float64Array;
  tokensMatched: Uint8Array;
  bestFieldTokens: Uint8Array;
  bestFieldWeight: Uint8Array;
  fieldsMatched: Uint8Array;
  /** Typesense's candidate cost per document (2 per typo + 1 per prefix-only word). */
  cost: Uint8Array;
  /** Best field's distinct query words, word distance and verbatim flag (Typesense's field score parts). */
  bestFieldUnique: Uint8Array;
  bestFieldDistance: Uint8Array;
  bestFieldVerbatim: Uint8Array;
  /**
   * Documents the current query touched, in the order touched: `touched[0 … touchedCount)`. A typed
   * array of the scratch's capacity (a document is touched at most once per query), so a query
   * neither grows nor drops an array (a JS array emptied with `length = 0` loses its storage and
   * was regrown by every query: ~0.6 MB of garbage per search at 100k articles).
   */
  touched: Int32Array;
  touchedCount = 0;
  matched = new Int32Array(1024);
  private stride = { tokens: 1, fields: 1 };

  constructor(
    readonly capacity: number,
    readonly maxTokens: number,
    readonly maxFields: number,
  ) {
    this.touched = new Int32Array(capacity);
    this.tokenMask = new Uint32Array(capacity);
    this.typoCost = new Uint8Array(capacity);
    this.prefixOnly = new Uint8Array(capacity);
    this.tokenCost = new Uint8Array(capacity * maxTokens);
    this.tokenChoice = new Uint8Array(capacity * maxTokens);
    this.fieldTokenMask = new Uint32Array(capacity * maxFields);
    this.heldCandidates = new Uint32Array(capacity * maxTokens);
    this.fieldUnionMask = new Uint32Array(capacity * maxFields);
    this.multiCandidate = new Uint8Array(capacity);
    this.flagged = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
    this.tokensMatched = new Uint8Array(capacity);
    this.bestFieldTokens = new Uint8Array(capacity);
    this.bestFieldWeight = new Uint8Array(capacity);
    this.fieldsMatched = new Uint8Array(capacity);
    this.cost = new Uint8Array(capacity);
    this.bestFieldUnique = new Uint8Array(capacity);
    this.bestFieldDistance = new Uint8Array(capacity);
    this.bestFieldVerbatim = new Uint8Array(capacity);
  }

  /**
   * Clears what the previous query wrote and records this query's strides. A query that touched
   * many documents (a common word, a short prefix) is cleared by zeroing whole arrays (memset),
   * cheaper than visiting each document; otherwise per touched document, with plain loops for the
   * per-word and per-field entries (a `fill` call per document cost more than the stores: it was
   * the search workers' top function at 100k articles). `tokenChoice` is only read where its
   * document's word bit is set, which rewrites it first, so it is never cleared.
   */
  reset(tokens: number, fields: number): void {
    const { tokens: previousTokens, fields: previousFields } = this.stride;
    const { touched, touchedCount } = this;
    if (touchedCount > this.capacity / WHOLE_CLEAR_FRACTION) {
      this.tokenMask.fill(0);
      this.typoCost.fill(0);
      this.prefixOnly.fill(0);
      this.tokenCost.fill(0);
      this.fieldTokenMask.fill(0);
      this.scores.fill(0);
      this.tokensMatched.fill(0);
      this.bestFieldTokens.fill(0);
      this.bestFieldWeight.fill(0);
      this.fieldsMatched.fill(0);
      this.cost.fill(0);
      this.bestFieldUnique.fill(0);
      this.bestFieldDistance.fill(0);
      this.bestFieldVerbatim.fill(0);
    } else {
      const { tokenMask, typoCost, prefixOnly, tokenCost, fieldTokenMask, scores, tokensMatched, bestFieldTokens, bestFieldWeight, fieldsMatched, cost, bestFieldUnique, bestFieldDistance, bestFieldVerbatim } = this;
      for (let i = 0; i < touchedCount; i++) {
        const seq = touched[i] as number;
        tokenMask[seq] = 0;
        typoCost[seq] = 0;
        prefixOnly[seq] = 0;
        const tokenStart = seq * previousTokens;
        for (let k = 0; k < previousTokens; k++) tokenCost[tokenStart + k] = 0;
        const fieldStart = seq * previousFields;
        for (let k = 0; k < previousFields; k++) fieldTokenMask[fieldStart + k] = 0;
        scores[seq] = 0;
        tokensMatched[seq] = 0;
        bestFieldTokens[seq] = 0;
        bestFieldWeight[seq] = 0;
        fieldsMatched[seq] = 0;
        cost[seq] = 0;
        bestFieldUnique[seq] = 0;
        bestFieldDistance[seq] = 0;
        bestFieldVerbatim[seq] = 0;
      }
    }
    const { heldCandidates, fieldUnionMask, multiCandidate, flagged, flaggedCount } = this;
    for (let i = 0; i < flaggedCount; i++) {
      const seq = flagged[i] as number;
      for (let k = 0; k < previousTokens; k++) heldCandidates[seq * previousTokens + k] = 0;
      for (let k = 0; k < previousFields; k++) fieldUnionMask[seq * previousFields + k] = 0;
      multiCandidate[seq] = 0;
    }
    this.flaggedCount = 0;
    this.touchedCount = 0;
    this.stride = { tokens, fields };
  }
}

/** Above capacity / this many touched documents, `reset` zeroes whole arrays instead. */
const WHOLE_CLEAR_FRACTION = 8;

const scratchByCollection = new WeakMap<Collection, MatchScratch>();

/** The collection's scratch as the last query left it, if any (to record more touched documents). */
export function existingScratch(collection: Collection): MatchScratch | undefined {
  return scratchByCollection.get(collection);
}

export function scratchFor(collection: Collection, limit: number, tokens: number, fields: number): MatchScratch {
  let scratch = scratchByCollection.get(collection);
  if (!scratch || scratch.capacity < limit || scratch.maxTokens < tokens || scratch.maxFields < fields) {
    const capacity = Math.max(limit + 1024, Math.ceil(limit * 1.25));
    scratch = new MatchScratch(capacity, Math.max(tokens, 8), Math.max(fields, collection.textFields.size, 4));
    scratchByCollection.set(collection, scratch);
  } else {
    scratch.reset(tokens, fields);
  }
  return scratch;
}

