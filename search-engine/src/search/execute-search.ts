import { performance } from 'node:perf_hooks';
import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import type { StoredDocument } from '../schema/validate-document.js';
import { computeFacets, parseFacetQuery, validateFacetFields } from './facets.js';
import { evaluateFilter } from './filter-eval.js';
import { highlightText, type HighlightOptions } from './highlight.js';
import type { SearchParams } from './search-params.js';
import { effectiveSortKeys, makeComparator, topK } from './sort.js';
import { documentHasPhrases, parseQueryWords } from './query-words.js';
import { type QueryField, type TextMatchResult } from './text-match.js';
import { applyCurations, type CurationOutcome } from '../sets/curation-set.js';
import { synonymAlternatives } from '../sets/synonym-set.js';
import { matchWithSynonyms } from './synonym-match.js';

/** Typesense's expansion limit: 10 candidates below 500k documents, else 4. */
function defaultMaxCandidates(size: number): number {
  return size < 500_000 ? 10 : 4;
}

function resolveQueryFields(collection: Collection, params: SearchParams): QueryField[] {
  return params.queryBy.map((name, i) => {
    const definition = collection.fieldsByName.get(name);
    if (!definition) throw new ApiError(404, `Could not find a field named \`${name}\` in the schema.`);
    if (definition.type !== 'string' && definition.type !== 'string[]') {
      throw new ApiError(400, `Field \`${name}\` should be a string or a string array.`);
    }
    const index = collection.textFields.get(name);
    if (!index) throw new ApiError(400, `Field \`${name}\` is marked as a non-indexed field in the schema.`);
    return {
      index,
      weight: params.queryByWeights?.[i] ?? Math.max(15 - i, 1),
      prefix: params.prefix[i] ?? true,
      numTypos: params.numTypos[i] ?? 2,
    };
  });
}

function projectDocument(document: StoredDocument, params: SearchParams): Record<string, unknown> {
  if (!params.includeFields && params.excludeFields.length === 0) return document;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (params.includeFields && !params.includeFields.includes(key)) continue;
    if (params.excludeFields.includes(key)) continue;
    out[key] = value;
  }
  return out;
}

function buildHighlights(document: StoredDocument, fields: string[], fullFields: Set<string>, options: HighlightOptions) {
  const highlight: Record<string, unknown> = {};
  const highlights: Record<string, unknown>[] = [];
  for (const field of fields) {
    const raw = document[field];
    const withValue = fullFields.has(field);
    if (typeof raw === 'string') {
      const h = highlightText(raw, options, withValue);
      if (!h.matched) continue;
      highlight[field] = withValue ? { matched_tokens: h.matchedTokens, snippet: h.snippet, value: h.value } : { matched_tokens: h.matchedTokens, snippet: h.snippet };
      highlights.push(withValue ? { field, matched_tokens: h.matchedTokens, snippet: h.snippet, value: h.value } : { field, matched_tokens: h.matchedTokens, snippet: h.snippet });
    } else if (Array.isArray(raw)) {
      const elements = raw.map((element) => (typeof element === 'string' ? highlightText(element, options, withValue) : undefined));
      if (!elements.some((h) => h?.matched)) continue;
      highlight[field] = elements.map((h, i) => {
        const text = typeof raw[i] === 'string' ? (raw[i] as string) : String(raw[i]);
        const entry: Record<string, unknown> = { matched_tokens: h?.matchedTokens ?? [], snippet: h?.snippet ?? text };
        if (withValue) entry.value = h?.value ?? text;
        return entry;
      });
      const indices: number[] = [];
      elements.forEach((h, i) => {
        if (h?.matched) indices.push(i);
      });
      const v1: Record<string, unknown> = {
        field,
        indices,
        matched_tokens: indices.map((i) => elements[i]?.matchedTokens ?? []),
        snippets: indices.map((i) => elements[i]?.snippet ?? ''),
      };
      if (withValue) v1.values = indices.map((i) => elements[i]?.value ?? '');
      highlights.push(v1);
    }
  }
  return { highlight, highlights };
}

/** The curation outcome for this search, or undefined when curation does not apply. */
function curationFor(collection: Collection, params: SearchParams): CurationOutcome | undefined {
  const names = collection.schema.curation_sets;
  if (!params.enableCurations || !collection.sets || names.length === 0) return undefined;
  return applyCurations(collection.sets.curationsOf(names), params.q, params.filterBy, params.curationTags, Math.floor(Date.now() / 1000));
}

/** Synonym items of the collection's sets and of the request's `synonym_sets` (unknown request sets → 404). */
function synonymsFor(collection: Collection, params: SearchParams) {
  const sets = collection.sets;
  if (!sets) return [];
  for (const name of params.synonymSets) if (!sets.hasSynonymSet(name)) throw new ApiError(404, 'Synonym index not found');
  return sets.synonymsOf([...collection.schema.synonym_sets, ...params.synonymSets]);
}

function combineFilters(filters: string[]): string {
  const present = filters.filter((f) => f.trim() !== '');
  return present.length <= 1 ? (present[0] ?? '') : present.map((f) => `(${f})`).join(' && ');
}

/** A pinned document and its 1-based position. */
interface PinnedSeq {
  seq: number;
  position: number;
}

/**
 * Pinned documents: curation `includes`, then `pinned_hits`; hidden ones, unknown ids and
 * repeats are skipped; with `filter_curated_hits` they must pass the filter. Ordered by
 * position (stable), as Typesense's curated topster orders them.
 */
function pinnedSeqs(collection: Collection, curation: CurationOutcome | undefined, params: SearchParams, filter: Uint8Array | undefined): PinnedSeq[] {
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
function removedSeqs(collection: Collection, curation: CurationOutcome | undefined, params: SearchParams, pinned: PinnedSeq[]): Set<number> {
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
function mergePinned(ranked: number[], pinned: PinnedSeq[], limit: number): { seq: number; curated: boolean }[] {
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

/**
 * Runs one search against a collection and returns the Typesense response
 * object. Throws ApiError for invalid parameters (status and message as
 * Typesense sends them).
 */
export function executeSearch(collection: Collection, params: SearchParams): Record<string, unknown> {
  const started = performance.now();
  const curation = curationFor(collection, params);
  const q = curation?.query ?? params.q;
  const { words, excludedWords, phrases } = parseQueryWords(q);
  const wildcard = q.trim() === '*' || words.length === 0;
  if (!wildcard && params.queryBy.length === 0) throw new ApiError(400, 'No search fields specified for the query.');
  const fields = resolveQueryFields(collection, params);
  validateFacetFields(collection, params.facetBy);
  const facetQuery = parseFacetQuery(params.facetQuery, params.facetBy);
  const sortKeys = effectiveSortKeys(collection, curation?.sortBy ?? params.sortBy, wildcard);
  const filterBy = combineFilters([params.filterBy, ...(curation?.filters ?? [])]);
  const filter = filterBy ? evaluateFilter(collection, filterBy) : undefined;

  let matched: Int32Array;
  let textMatch: TextMatchResult | undefined;
  if (wildcard) {
    const all = new Int32Array(collection.size);
    let count = 0;
    const live = collection.live;
    for (let seq = 0; seq < collection.seqLimit; seq++) {
      if (live[seq] === 1 && (!filter || filter[seq] === 1)) all[count++] = seq;
    }
    matched = all.subarray(0, count);
  } else {
    const alternatives = params.enableSynonyms ? synonymAlternatives(words, synonymsFor(collection, params)) : [];
    textMatch = matchWithSynonyms(
      collection,
      {
        words,
        excludedWords,
        fields,
        minLen1Typo: params.minLen1Typo,
        minLen2Typo: params.minLen2Typo,
        typoTokensThreshold: params.typoTokensThreshold,
        dropTokensThreshold: params.dropTokensThreshold,
        maxCandidates: params.maxCandidates ?? defaultMaxCandidates(collection.size),
        prioritizeExactMatch: params.prioritizeExactMatch,
        filter,
      },
      alternatives,
      fields.map((field) => ({ ...field, prefix: params.synonymPrefix, numTypos: params.synonymNumTypos })),
    );
    matched = textMatch.seqs;
    if (phrases.length > 0) {
      // Phrases are checked on the candidates' text: rare in practice and exact by construction.
      const kept = new Int32Array(matched.length);
      let count = 0;
      for (const seq of matched) {
        const document = collection.documents[seq];
        if (document && documentHasPhrases(document, params.queryBy, phrases)) kept[count++] = seq;
      }
      matched = kept.subarray(0, count);
    }
  }

  // Curation: hidden documents leave the result; pinned ones leave the ranked list and come back at their positions.
  const pinned = pinnedSeqs(collection, curation, params, filter);
  const removed = removedSeqs(collection, curation, params, pinned);
  if (removed.size > 0) {
    const kept = new Int32Array(matched.length);
    let count = 0;
    for (const seq of matched) if (!removed.has(seq)) kept[count++] = seq;
    matched = kept.subarray(0, count);
  }

  const compare = makeComparator(collection, sortKeys, textMatch?.scores);
  const offset = (params.page - 1) * params.perPage;
  const ranked = params.perPage === 0 ? [] : topK(matched, offset + params.perPage, compare);
  const pageEntries = params.perPage === 0 ? [] : mergePinned(ranked, pinned, offset + params.perPage).slice(offset);
  const withTextMatch = sortKeys.some((k) => k.field === '_text_match');
  const highlightFields = params.highlightFields ?? params.queryBy;
  const highlightOptions: HighlightOptions | undefined = textMatch && {
    matchedTerms: textMatch.matchedTerms,
    startTag: params.highlightStartTag,
    endTag: params.highlightEndTag,
    affixNumTokens: params.highlightAffixNumTokens,
    snippetThreshold: params.snippetThreshold,
  };
  const fullFields = new Set(params.highlightFullFields);

  const hits = pageEntries.map(({ seq, curated }) => {
    const document = collection.documents[seq] as StoredDocument;
    const { highlight, highlights } = highlightOptions
      ? buildHighlights(document, highlightFields, fullFields, highlightOptions)
      : { highlight: {}, highlights: [] };
    const hit: Record<string, unknown> = { document: projectDocument(document, params), highlight, highlights: params.enableHighlightV1 ? highlights : [] };
    if (curated) {
      hit.curated = true;
    } else if (withTextMatch) {
      const score = textMatch ? (textMatch.scores[seq] as number) : 0;
      hit.text_match = score;
      if (textMatch) {
        hit.text_match_info = {
          best_field_score: String((textMatch.bestFieldTokens[seq] as number) * 32 + (31 - Math.min(textMatch.typoCost[seq] as number, 31))),
          best_field_weight: textMatch.bestFieldWeight[seq],
          fields_matched: textMatch.fieldsMatched[seq],
          num_tokens_dropped: Math.max(0, textMatch.numTokens - (textMatch.tokensMatched[seq] as number)),
          score: String(score),
          tokens_matched: textMatch.tokensMatched[seq],
          typo_prefix_score: textMatch.typoCost[seq],
        };
      }
    }
    return hit;
  });

  const facetSeqs = pinned.length === 0 ? matched : Int32Array.from([...matched, ...pinned.map((p) => p.seq)]);
  const facetCounts = computeFacets(collection, params.facetBy, facetSeqs, params.maxFacetValues, facetQuery, params.highlightStartTag, params.highlightEndTag);
  const response: Record<string, unknown> = {
    facet_counts: facetCounts,
    found: matched.length + pinned.length,
    hits,
    out_of: collection.size,
    page: params.page,
    request_params: { collection_name: collection.name, first_q: params.q, per_page: params.perPage, q: params.q },
    search_cutoff: false,
    search_time_ms: Math.round(performance.now() - started),
  };
  if (curation?.metadata) response.metadata = curation.metadata;
  return response;
}
