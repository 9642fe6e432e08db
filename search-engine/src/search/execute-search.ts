import { performance } from 'node:perf_hooks';
import { ApiError } from '../api-error.js';
import type { Collection } from '../index/collection.js';
import type { StoredDocument } from '../schema/validate-document.js';
import { nestValue } from '../schema/nested-fields.js';
import { computeFacets, expandFacetBy, parseFacetQuery } from './facets.js';
import { evaluateFilter } from './filter-eval.js';
import { highlightText, type HighlightOptions } from './highlight.js';
import type { SearchParams } from './search-params.js';
import { effectiveSortKeys, hitGeoDistance, makeComparator } from './sort.js';
import { documentHasPhrases, parseQueryWords } from './query-words.js';
import { type QueryField, type TextMatchResult } from './text-match.js';
import { synonymAlternatives } from '../sets/synonym-set.js';
import { matchWithSynonyms } from './synonym-match.js';
import { combineFilters, curationFor, mergePinned, pinnedSeqs, removedSeqs, synonymsFor } from './curation-apply.js';
import { rankedSeqs } from './diversity.js';
import { groupDocuments, validateGroupBy } from './grouping.js';
import type { PreparedSearch } from './prepared-search.js';

export type { PreparedSearch } from './prepared-search.js';

/** Typesense's expansion limit: 10 candidates below 500k documents, else 4. */
function defaultMaxCandidates(size: number): number {
  return size < 500_000 ? 10 : 4;
}

/**
 * The searched fields of `query_by` with weights and per-field settings. An `object` /
 * `object[]` field stands for its string children (Typesense uses them automatically);
 * they share the object's position (weight, prefix, typos).
 */
function resolveQueryFields(collection: Collection, params: SearchParams): QueryField[] {
  const weights = fieldWeights(params);
  const out: { field: QueryField; weight: number }[] = [];
  params.queryBy.forEach((name, i) => {
    const definition = collection.fieldsByName.get(name);
    if (!definition) throw new ApiError(404, `Could not find a field named \`${name}\` in the schema.`);
    const settings = {
      weight: weights[i] as number,
      prefix: params.prefix[i] ?? true,
      numTypos: params.numTypos[i] ?? 2,
    };
    if ((definition.type === 'object' || definition.type === 'object[]') && collection.schema.enable_nested_fields) {
      for (const [childName, index] of collection.textFields) if (childName.startsWith(`${name}.`)) out.push({ field: { index, ...settings }, weight: settings.weight });
      return;
    }
    if (definition.type !== 'string' && definition.type !== 'string[]') {
      throw new ApiError(400, `Field \`${name}\` should be a string or a string array.`);
    }
    const index = collection.textFields.get(name);
    if (!index) throw new ApiError(400, `Field \`${name}\` is marked as a non-indexed field in the schema.`);
    out.push({ field: { index, ...settings }, weight: settings.weight });
  });
  // Typesense searches fields in weight order (stable), so ties go to the heavier field.
  return out.sort((a, b) => b.weight - a.weight).map((entry) => entry.field);
}

/**
 * Field weights as Typesense computes them (`Collection::process_search_field_weights`):
 * implicit 15, 14, 13, … (not below 0); explicit weights are used as given when they
 * descend and stay ≤ 15, otherwise normalised: the heaviest becomes 15 and each lighter
 * distinct weight one less than the previous.
 */
function fieldWeights(params: SearchParams): number[] {
  const given = params.queryByWeights;
  if (!given) return params.queryBy.map((_, i) => Math.max(0, 15 - i));
  const descending = given.every((w, i) => i === 0 || w <= (given[i - 1] as number));
  if (descending && given.every((w) => w <= 15)) return [...given];
  const order = given.map((weight, index) => ({ weight, index })).sort((a, b) => b.weight - a.weight);
  const out = new Array<number>(given.length);
  order.forEach((entry, k) => {
    const previous = order[k - 1];
    out[entry.index] = k === 0 ? 15 : previous && previous.weight === entry.weight ? (out[previous.index] as number) : Math.max(0, (out[(previous as { index: number }).index] as number) - 1);
  });
  return out;
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

/**
 * Highlights of the searched fields: the `highlight` object (nested fields mirror the
 * document's nesting; for arrays of objects, one entry per object) and the v1
 * `highlights` array (top-level fields only).
 */
function buildHighlights(collection: Collection, seq: number, fields: string[], fullFields: Set<string>, options: HighlightOptions) {
  const document = collection.document(seq) as StoredDocument;
  const highlight: Record<string, unknown> = {};
  const highlights: Record<string, unknown>[] = [];
  for (const field of fields) {
    const raw = collection.valueOf(seq, field);
    const nested = collection.schema.enable_nested_fields && field.includes('.') && !(field in document);
    const withValue = fullFields.has(field);
    if (typeof raw === 'string') {
      const h = highlightText(raw, options, withValue);
      if (!h.matched) continue;
      const entry = withValue ? { matched_tokens: h.matchedTokens, snippet: h.snippet, value: h.value } : { matched_tokens: h.matchedTokens, snippet: h.snippet };
      if (nested) {
        nestValue(highlight, document, field, entry, () => undefined);
        continue;
      }
      highlight[field] = entry;
      highlights.push({ field, ...entry });
    } else if (Array.isArray(raw)) {
      const elements = raw.map((element) => (typeof element === 'string' ? highlightText(element, options, withValue) : undefined));
      if (!elements.some((h) => h?.matched)) continue;
      const entries = elements.map((h, i) => {
        const text = typeof raw[i] === 'string' ? (raw[i] as string) : String(raw[i]);
        const entry: Record<string, unknown> = { matched_tokens: h?.matchedTokens ?? [], snippet: h?.snippet ?? text };
        if (withValue) entry.value = h?.value ?? text;
        return entry;
      });
      if (nested) {
        nestValue(highlight, document, field, entries, (i) => entries[i]);
        continue;
      }
      highlight[field] = entries;
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


/**
 * Validates a search against the collection and finds and scores its documents:
 * curation (query rewrite, filters, sort, pins), synonyms, the text-match cascade and
 * phrases, filters. Throws ApiError like Typesense.
 */
export function prepareSearch(collection: Collection, params: SearchParams, options: { rankedLimit?: number } = {}): PreparedSearch {
  const started = performance.now();
  const curation = curationFor(collection, params);
  const q = curation?.query ?? params.q;
  const { words, excludedWords, phrases } = parseQueryWords(q);
  const wildcard = q.trim() === '*' || words.length === 0;
  if (!wildcard && params.queryBy.length === 0) throw new ApiError(400, 'No search fields specified for the query.');
  const fields = resolveQueryFields(collection, params);
  const facetFields = expandFacetBy(collection, params.facetBy);
  validateGroupBy(collection, params);
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
    // Word proximity only where it can change the hits shown: text match must rank first, and
    // documents removed after matching (pinned, hidden, phrases) widen the cut.
    const removable = params.pinnedHits.length + params.hiddenHits.length + (curation ? curation.includes.length + curation.excludes.size : 0);
    const refineTop =
      options.rankedLimit !== undefined && params.groupBy.length === 0 && phrases.length === 0 && sortKeys[0]?.field === '_text_match'
        ? options.rankedLimit + removable
        : undefined;
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
        refineTop,
      },
      alternatives,
      fields.map((field) => ({ ...field, prefix: params.synonymPrefix, numTypos: params.synonymNumTypos })),
      params.demoteSynonymMatch,
    );
    matched = textMatch.seqs;
    if (phrases.length > 0) {
      // Phrases are checked on the candidates' text: rare in practice and exact by construction.
      const kept = new Int32Array(matched.length);
      let count = 0;
      for (const seq of matched) {
        if (collection.document(seq) && documentHasPhrases((field) => collection.valueOf(seq, field), fields.map((f) => f.index.field.name), phrases)) kept[count++] = seq;
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

  const highlightOptions: HighlightOptions | undefined = textMatch && {
    matchedTerms: textMatch.matchedTerms,
    startTag: params.highlightStartTag,
    endTag: params.highlightEndTag,
    affixNumTokens: params.highlightAffixNumTokens,
    snippetThreshold: params.snippetThreshold,
  };
  const compare = makeComparator(collection, sortKeys, textMatch?.scores);
  const searchedFields = fields.map((f) => f.index.field.name);
  return { collection, params, matched, pinned, sortKeys, compare, textMatch, curation, facetFields, highlightOptions, searchedFields, started };
}

/** Renders one hit: document (projected), highlights, `curated` or `text_match` / `text_match_info`. */
export function buildHit(prepared: PreparedSearch, seq: number, curated: boolean): Record<string, unknown> {
  const { collection, params, textMatch, highlightOptions } = prepared;
  const document = collection.document(seq) as StoredDocument;
  const highlightFields = params.highlightFields ?? prepared.searchedFields;
  const { highlight, highlights } = highlightOptions
    ? buildHighlights(collection, seq, highlightFields, new Set(params.highlightFullFields), highlightOptions)
    : { highlight: {}, highlights: [] };
  const hit: Record<string, unknown> = { document: projectDocument(document, params), highlight, highlights: params.enableHighlightV1 ? highlights : [] };
  const geoKeys = prepared.sortKeys.filter((key) => key.geo);
  if (geoKeys.length > 0) {
    const distances: Record<string, number> = {};
    for (const key of geoKeys) {
      distances[key.field] = hitGeoDistance(collection, key, seq);
    }
    hit.geo_distance_meters = distances;
  }
  if (curated) {
    hit.curated = true;
  } else if (prepared.sortKeys.some((k) => k.field === '_text_match')) {
    if (textMatch) {
      const { score, bestFieldScore } = typesenseTextMatch(textMatch, seq);
      // The exact 64-bit value is in text_match_info.score; as a JSON number it is rounded like any JS client reads it.
      hit.text_match = Number(score);
      hit.text_match_info = {
        best_field_score: String(bestFieldScore),
        best_field_weight: textMatch.bestFieldWeight[seq],
        fields_matched: textMatch.fieldsMatched[seq],
        // As Typesense: the query's words less the 4-bit words-matched field (`populate_text_match_info`).
        num_tokens_dropped: Math.max(0, textMatch.numTokens - Math.min(textMatch.tokensMatched[seq] as number, 15)),
        score: String(score),
        tokens_matched: Math.min(textMatch.tokensMatched[seq] as number, 15),
        typo_prefix_score: textMatch.typoCost[seq],
      };
    } else {
      hit.text_match = 0;
    }
  }
  return hit;
}

/**
 * Typesense's 64-bit text match (MAX_SCORE layout, src/index.cpp): tokens matched (4 bits) |
 * best field score (48: words in window 8, distinct words 8, 255 - cost 8, 100 - distance 8,
 * verbatim 4, token position 8 (0: prioritize_token_position is off), synonym 4 (1, or 0 for a
 * synonym match with `demote_synonym_match`)) |
 * best field weight (8) | fields matched (3).
 */
function typesenseTextMatch(textMatch: TextMatchResult, seq: number): { score: bigint; bestFieldScore: bigint } {
  const bestFieldScore =
    (BigInt(textMatch.bestFieldTokens[seq] as number) << 40n) |
    (BigInt(textMatch.bestFieldUnique[seq] as number) << 32n) |
    (BigInt(255 - (textMatch.typoCost[seq] as number)) << 24n) |
    (BigInt(100 - (textMatch.bestFieldDistance[seq] as number)) << 16n) |
    (BigInt(textMatch.bestFieldVerbatim[seq] as number) << 12n) |
    BigInt(textMatch.synonymScores?.[seq] ?? textMatch.synonymScore);
  const score =
    (BigInt(Math.min(textMatch.tokensMatched[seq] as number, 15)) << 59n) |
    (bestFieldScore << 11n) |
    (BigInt(Math.min(textMatch.bestFieldWeight[seq] as number, 255)) << 3n) |
    BigInt(textMatch.fieldsMatched[seq] as number);
  return { score, bestFieldScore };
}

/** The ordered entries of the first `limit` result slots (pinned documents at their positions). */
export function rankedEntries(prepared: PreparedSearch, limit: number): { seq: number; curated: boolean }[] {
  if (limit <= 0) return [];
  return mergePinned(rankedSeqs(prepared, limit), prepared.pinned, limit);
}

/**
 * Runs one search against a collection and returns the Typesense response
 * object. Throws ApiError for invalid parameters (status and message as
 * Typesense sends them).
 */
export function executeSearch(collection: Collection, params: SearchParams): Record<string, unknown> {
  const prepared = prepareSearch(collection, params, { rankedLimit: params.page * params.perPage });
  const { matched, pinned } = prepared;
  const offset = (params.page - 1) * params.perPage;
  const facetSeqs = pinned.length === 0 ? matched : Int32Array.from([...matched, ...pinned.map((p) => p.seq)]);
  const facetQuery = parseFacetQuery(params.facetQuery, prepared.facetFields.map((f) => f.name));
  const response: Record<string, unknown> = { facet_counts: [] };

  let groupOf: Int32Array | undefined;
  if (params.groupBy.length > 0) {
    const grouping = groupDocuments(prepared, offset + params.perPage);
    groupOf = grouping.groupOf;
    response.found = grouping.groupCount;
    response.found_docs = matched.length + pinned.length;
    response.grouped_hits = grouping.groups.slice(offset).map((group) => ({
      found: group.found,
      group_key: group.key,
      hits: group.seqs.map((seq) => buildHit(prepared, seq, group.curated)),
    }));
  } else {
    response.found = matched.length + pinned.length;
    response.hits = rankedEntries(prepared, params.perPage === 0 ? 0 : offset + params.perPage)
      .slice(offset)
      .map(({ seq, curated }) => buildHit(prepared, seq, curated));
  }

  const facetCounts = computeFacets(collection, prepared.facetFields.map((f) => f.name), facetSeqs, params.maxFacetValues, facetQuery, params.highlightStartTag, params.highlightEndTag, groupOf);
  // Typesense leaves out facets reached through a wildcard (`facet_by=*`) that have no values.
  response.facet_counts = facetCounts.filter((facet, i) => !(prepared.facetFields[i]?.wildcard && facet.counts.length === 0 && facet.stats.total_values === 0));
  response.out_of = collection.size;
  response.page = params.page;
  response.request_params = { collection_name: collection.name, first_q: params.q, per_page: params.perPage, q: params.q };
  response.search_cutoff = false;
  response.search_time_ms = Math.round(performance.now() - prepared.started);
  if (prepared.curation?.metadata) response.metadata = prepared.curation.metadata;
  return response;
}
