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
  touched: number[] = [];
  matched = new Int32Array(1024);
  private stride = { tokens: 1, fields: 1 };

  constructor(
    readonly capacity: number,
    readonly maxTokens: number,
    readonly maxFields: number,
  ) {
    this.tokenMask = new Uint32Array(capacity);
    this.typoCost = new Uint8Array(capacity);
    this.prefixOnly = new Uint8Array(capacity);
    this.tokenCost = new Uint8Array(capacity * maxTokens);
    this.tokenChoice = new Uint8Array(capacity * maxTokens);
    this.fieldTokenMask = new Uint32Array(capacity * maxFields);
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

  /** Clears what the previous query wrote and records this query's strides. */
  reset(tokens: number, fields: number): void {
    const { tokens: previousTokens, fields: previousFields } = this.stride;
    for (const seq of this.touched) {
      this.tokenMask[seq] = 0;
      this.typoCost[seq] = 0;
      this.prefixOnly[seq] = 0;
      this.tokenCost.fill(0, seq * previousTokens, (seq + 1) * previousTokens);
      this.fieldTokenMask.fill(0, seq * previousFields, (seq + 1) * previousFields);
      this.scores[seq] = 0;
      this.tokensMatched[seq] = 0;
      this.bestFieldTokens[seq] = 0;
      this.bestFieldWeight[seq] = 0;
      this.fieldsMatched[seq] = 0;
      this.cost[seq] = 0;
      this.bestFieldUnique[seq] = 0;
      this.bestFieldDistance[seq] = 0;
      this.bestFieldVerbatim[seq] = 0;
    }
    this.touched.length = 0;
    this.stride = { tokens, fields };
  }
}

const scratchByCollection = new WeakMap<Collection, MatchScratch>();

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

