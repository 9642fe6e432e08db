import type { Collection } from '../index/collection.js';
import type { CurationOutcome } from '../sets/curation-set.js';
import type { HighlightOptions } from './highlight.js';
import type { SearchParams } from './search-params.js';
import type { SortKey } from './sort.js';
import type { TextMatchResult } from './text-match.js';

// Its own module so what reads a prepared search (grouping, diversity) need not import the search
// that prepares it: execute-search.ts imports them, and they imported its type back (a loop).

/** Everything a search computed before hits are rendered (used by single and union searches). */
export interface PreparedSearch {
  collection: Collection;
  params: SearchParams;
  /** Ranked candidates (not ordered), without pinned and hidden documents. */
  matched: Int32Array;
  pinned: PinnedSeq[];
  sortKeys: SortKey[];
  compare: (a: number, b: number) => number;
  textMatch: TextMatchResult | undefined;
  curation: CurationOutcome | undefined;
  /** Names of the searched fields (`query_by` with object fields expanded). */
  searchedFields: string[];
  /** Expanded `facet_by` (wildcards resolved). */
  facetFields: { name: string; wildcard: boolean }[];
  highlightOptions: HighlightOptions | undefined;
  started: number;
}

/** A pinned document and its 1-based position. */
export interface PinnedSeq {
  seq: number;
  position: number;
}
