import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import { applyCurations, type CurationOutcome } from '../sets/curation-set.js';
import type { FieldValueLookup } from '../sets/dynamic-curation.js';
import { tokenize } from '../text/tokenize.js';
import type { CompiledSynonym } from '../sets/synonym-set.js';
import { validateDiversity } from './diversity.js';
import type { PinnedSeq } from './prepared-search.js';
import type { SearchParams } from './search-params.js';

export type { PinnedSeq } from './prepared-search.js';

/** The curation outcome for this search, or undefined when curation does not apply. */
export function curationFor(collection: Collection, params: SearchParams): CurationOutcome | undefined {
  const names = collection.schema.curation_sets;
  if (!params.enableCurations || !collection.sets || names.length === 0) return undefined;
  const outcome = applyCurations(collection.sets.curationsOf(names), params.q, params.filterBy, params.curationTags, Math.floor(Date.now() / 1000), fieldValueLookup(collection));
  if (outcome.diversity) validateDiversity(collection, params, outcome.diversity);
  return outcome;
}

/** Normalised values of each string facet field, per collection version (dynamic curation looks values up often). */
const facetValueCache = new WeakMap<Collection, { version: number; fields: Map<string, Set<string>> }>();

/**
 * Whether some document's string field (or an element of it) consists of exactly the given
 * words, compared as indexed (folded). Facet fields are answered from their distinct values;
 * other indexed string fields from the documents holding the first word.
 */
export function fieldValueLookup(collection: Collection): FieldValueLookup {
  return (field, words) => {
    const wanted = words.flatMap((word) => tokenize(word));
    if (wanted.length === 0) return false;
    const target = wanted.join(' ');
    const facet = collection.stringFacets.get(field);
    if (facet) {
      let cached = facetValueCache.get(collection);
      if (!cached || cached.version !== collection.version) {
        cached = { version: collection.version, fields: new Map() };
        facetValueCache.set(collection, cached);
      }
      let values = cached.fields.get(field);
      if (!values) {
        values = new Set(facet.values.map((value) => tokenize(value).join(' ')));
        cached.fields.set(field, values);
      }
      return values.has(target);
    }
    const text = collection.textFields.get(field);
    const termId = collection.dictionary.lookup(wanted[0] as string);
    const list = termId === undefined ? undefined : text?.postings[termId];
    if (!list) return false;
    for (let i = 0; i < list.length; i++) {
      const seq = list.ids[i] as number;
      if (text?.wordCounts[seq] !== undefined && (text.wordCounts[seq] as number) > wanted.length) continue;
      const value = collection.valueOf(seq, field);
      const texts = Array.isArray(value) ? value : [value];
      if (texts.some((item) => typeof item === 'string' && tokenize(item).join(' ') === target)) return true;
    }
    return false;
  };
}

/** Synonym items of the collection's sets and of the request's `synonym_sets` (unknown request sets → 404). */
export function synonymsFor(collection: Collection, params: SearchParams): CompiledSynonym[] {
  const sets = collection.sets;
  if (!sets) return [];
  for (const name of params.synonymSets) if (!sets.hasSynonymSet(name)) throw new ApiError(404, 'Synonym index not found');
  return sets.synonymsOf([...collection.schema.synonym_sets, ...params.synonymSets]);
}

export function combineFilters(filters: string[]): string {
  const present = filters.filter((f) => f.trim() !== '');
  return present.length <= 1 ? (present[0] ?? '') : present.map((f) => `(${f})`).join(' && ');
}


/**
 * Pinned documents: curation `includes`, then `pinned_hits`; hidden ones, unknown ids and
 * repeats are skipped; with `filter_curated_hits` they must pass the filter. Ordered by
 * position (stable), as Typesense's curated topster orders them.
 */
export function pinnedSeqs(collection: Collection, curation: CurationOutcome | undefined, params: SearchParams, filter: Uint8Array | undefined): PinnedSeq[] {
  const hidden = new Set([...params.hiddenHits, ...(curation?.excludes ?? [])]);
  const checkFilter = filter !== undefined && (params.filterCuratedHits || curation?.filterCuratedHits === true);
  const out: PinnedSeq[] = [];
  const taken = new Set<number>();
  for (const include of [...(curation?.includes ?? []), ...params.pinnedHits]) {
    if (hidden.has(include.id)) continue;
    const seq = collection.seqById.get(include.id);
    if (seq === undefined || taken.has(seq)) continue;
    if (checkFilter && filter[seq] !== 1) continue;
    taken.add(seq);
    out.push({ seq, position: include.position });
  }
  return out.sort((a, b) => a.position - b.position);
}

/** Documents taken out of the ranked list: hidden ones and the pinned ones. */
export function removedSeqs(collection: Collection, curation: CurationOutcome | undefined, params: SearchParams, pinned: PinnedSeq[]): Set<number> {
  const removed = new Set<number>(pinned.map((p) => p.seq));
  for (const id of [...params.hiddenHits, ...(curation?.excludes ?? [])]) {
    const seq = collection.seqById.get(id);
    if (seq !== undefined) removed.add(seq);
  }
  return removed;
}

/**
 * Puts pinned documents at their positions among the ranked ones, like Typesense's merge
 * of curated and raw results: a pinned document takes the slot equal to its position when
 * the list reaches it; pinned documents not placed by the end of the ranked list follow it.
 */
export function mergePinned(ranked: number[], pinned: PinnedSeq[], limit: number): { seq: number; curated: boolean }[] {
  const out: { seq: number; curated: boolean }[] = [];
  let p = 0;
  let r = 0;
  while (r < ranked.length && out.length < limit) {
    const next = pinned[p];
    if (next && next.position === out.length + 1) {
      out.push({ seq: next.seq, curated: true });
      p++;
      continue;
    }
    out.push({ seq: ranked[r++] as number, curated: false });
  }
  while (p < pinned.length && out.length < limit) out.push({ seq: (pinned[p++] as PinnedSeq).seq, curated: true });
  return out;
}

