import { ApiError } from '../api-error.js';
import { splitSortBy } from './sort.js';

/** Maximum hits per page, as in Typesense. */
export const MAX_PER_PAGE = 250;

/** Parsed, validated search parameters with Typesense's defaults. */
export interface SearchParams {
  q: string;
  queryBy: string[];
  /** Explicit weights, or undefined for the implicit 15,14,13,… order. */
  queryByWeights: number[] | undefined;
  prefix: boolean[];
  numTypos: number[];
  minLen1Typo: number;
  minLen2Typo: number;
  typoTokensThreshold: number;
  dropTokensThreshold: number;
  filterBy: string;
  sortBy: string;
  facetBy: string[];
  maxFacetValues: number;
  facetQuery: string;
  page: number;
  perPage: number;
  highlightFields: string[] | undefined;
  highlightFullFields: string[];
  highlightAffixNumTokens: number;
  highlightStartTag: string;
  highlightEndTag: string;
  snippetThreshold: number;
  enableHighlightV1: boolean;
  maxCandidates: number | undefined;
  prioritizeExactMatch: boolean;
  includeFields: string[] | undefined;
  excludeFields: string[];
  /**
   * Apply the collection's curation sets (`enable_curations`, default true). Typesense 30
   * renamed `enable_overrides` to this and ignores the old name, as we do.
   */
  enableCurations: boolean;
  /** `curation_tags` (Typesense 30's name for `override_tags`): only curation items with these tags apply. */
  curationTags: string[];
  /** `diversity_lambda` for a curation item's `diversity` (0..1, default 0.5). */
  diversityLambda: number;
  /** `filter_curated_hits`: pinned hits must pass `filter_by` too (default false). */
  filterCuratedHits: boolean;
  /** `pinned_hits` (`id:position,…`) and `hidden_hits` (`id,…`), applied like a curation. */
  pinnedHits: { id: string; position: number }[];
  hiddenHits: string[];
  /** Expand the query with synonyms (`enable_synonyms`, default true). */
  enableSynonyms: boolean;
  /** `synonym_prefix` (default false) and `synonym_num_typos` (default 0) for synonym words. */
  synonymPrefix: boolean;
  /** `demote_synonym_match` (default false): synonym matches rank below the same match of the query's own words. */
  demoteSynonymMatch: boolean;
  synonymNumTypos: number;
  /** Extra synonym sets for this search (`synonym_sets`), besides the collection's. */
  synonymSets: string[];
  /** `group_by` fields (facet fields); empty = no grouping. */
  groupBy: string[];
  /** Hits per group (`group_limit`, default 3, 1–99 with group_by). */
  groupLimit: number;
  /** Documents missing a group field form one group (`group_missing_values`, default true). */
  groupMissingValues: boolean;
}

/** Typesense's default `max_group_limit`. */
export const MAX_GROUP_LIMIT = 99;

function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function unsigned(params: Record<string, string>, key: string, fallback: number): number {
  const raw = params[key];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ApiError(400, `Parameter \`${key}\` must be an unsigned integer.`);
  return Number(raw.trim());
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return value.trim().toLowerCase() === 'true';
}

/**
 * Validates raw string parameters (query string and/or multi_search body,
 * already merged) into SearchParams. Schema-dependent checks happen in the
 * search itself. Throws ApiError with Typesense's status and message.
 */
export function parseSearchParams(params: Record<string, string>): SearchParams {
  const q = params.q;
  if (q === undefined) throw new ApiError(400, 'Parameter `q` is required.');
  const queryBy = splitList(params.query_by);
  const page = unsigned(params, 'page', 1);
  const perPageGiven = params.per_page !== undefined && params.per_page !== '';
  const facetQuery = params.facet_query ?? '';
  let perPage = unsigned(params, 'per_page', 10);
  if (!perPageGiven && facetQuery.trim() !== '') perPage = 0;
  if (perPage > MAX_PER_PAGE) throw new ApiError(422, `Only upto ${MAX_PER_PAGE} hits can be fetched per page.`);

  const weightsRaw = splitList(params.query_by_weights);
  let queryByWeights: number[] | undefined;
  if (weightsRaw.length > 0) {
    if (weightsRaw.length !== queryBy.length) {
      throw new ApiError(400, 'Number of weights in `query_by_weights` does not match number of `query_by` fields.');
    }
    queryByWeights = weightsRaw.map((w) => {
      if (!/^\d+$/.test(w)) throw new ApiError(400, 'Parameter `query_by_weights` must be a comma separated string of unsigned integers.');
      return Math.min(Number(w), 127);
    });
  }
  const perField = <T>(key: string, fallback: T, parse: (raw: string) => T, message: string): T[] => {
    const raw = splitList(params[key]);
    if (raw.length === 0) return queryBy.map(() => fallback);
    if (raw.length === 1) return queryBy.map(() => parse(raw[0] as string));
    if (raw.length !== queryBy.length) throw new ApiError(400, message);
    return raw.map(parse);
  };
  const prefix = perField('prefix', true, (raw) => bool(raw, true), 'Number of prefix values in `prefix` does not match number of `query_by` fields.');
  const numTypos = perField(
    'num_typos',
    2,
    (raw) => {
      if (!/^\d+$/.test(raw)) throw new ApiError(400, 'Parameter `num_typos` must be an unsigned integer.');
      return Math.min(Number(raw), 2);
    },
    'Number of weights in `num_typos` does not match number of `query_by` fields.',
  );

  const sortBy = params.sort_by ?? '';
  const sortKeys = splitSortBy(sortBy);
  if (sortKeys.length > 3) throw new ApiError(400, 'Only upto 3 sort fields are allowed.');

  const pinnedHits = splitList(params.pinned_hits).map((entry) => {
    const colon = entry.lastIndexOf(':');
    const position = colon < 0 ? Number.NaN : Number(entry.slice(colon + 1));
    if (colon <= 0 || !Number.isInteger(position) || position < 1) throw new ApiError(400, 'Parameter `pinned_hits` is malformed.');
    return { id: entry.slice(0, colon), position };
  });
  const groupBy = splitList(params.group_by);
  const groupLimit = unsigned(params, 'group_limit', 3);
  if (groupBy.length > 0 && (groupLimit === 0 || groupLimit > MAX_GROUP_LIMIT)) {
    throw new ApiError(400, `Value of \`group_limit\` must be between 1 and ${MAX_GROUP_LIMIT}.`);
  }
  const highlightFieldsRaw = params.highlight_fields;
  return {
    q,
    queryBy,
    queryByWeights,
    prefix,
    numTypos,
    minLen1Typo: unsigned(params, 'min_len_1typo', 4),
    minLen2Typo: unsigned(params, 'min_len_2typo', 7),
    typoTokensThreshold: unsigned(params, 'typo_tokens_threshold', 1),
    dropTokensThreshold: unsigned(params, 'drop_tokens_threshold', 1),
    filterBy: params.filter_by ?? '',
    sortBy,
    facetBy: splitList(params.facet_by),
    maxFacetValues: unsigned(params, 'max_facet_values', 10),
    facetQuery,
    page: page === 0 ? 1 : page,
    perPage,
    highlightFields: highlightFieldsRaw === undefined || highlightFieldsRaw === '' ? undefined : splitList(highlightFieldsRaw),
    highlightFullFields: splitList(params.highlight_full_fields),
    highlightAffixNumTokens: unsigned(params, 'highlight_affix_num_tokens', 4),
    highlightStartTag: params.highlight_start_tag ?? '<mark>',
    highlightEndTag: params.highlight_end_tag ?? '</mark>',
    snippetThreshold: unsigned(params, 'snippet_threshold', 30),
    enableHighlightV1: bool(params.enable_highlight_v1, true),
    maxCandidates: params.max_candidates === undefined ? undefined : unsigned(params, 'max_candidates', 4),
    prioritizeExactMatch: bool(params.prioritize_exact_match, true),
    includeFields: params.include_fields ? splitList(params.include_fields) : undefined,
    excludeFields: splitList(params.exclude_fields),
    enableCurations: bool(params.enable_curations, true),
    curationTags: splitList(params.curation_tags),
    diversityLambda: diversityLambda(params.diversity_lambda),
    filterCuratedHits: bool(params.filter_curated_hits, false),
    pinnedHits,
    hiddenHits: splitList(params.hidden_hits),
    enableSynonyms: bool(params.enable_synonyms, true),
    synonymPrefix: bool(params.synonym_prefix, false),
    demoteSynonymMatch: bool(params.demote_synonym_match, false),
    synonymNumTypos: Math.min(unsigned(params, 'synonym_num_typos', 0), 2),
    synonymSets: splitList(params.synonym_sets),
    groupBy,
    groupLimit,
    groupMissingValues: bool(params.group_missing_values, true),
  };
}

/** `diversity_lambda`: a number in [0, 1], else the default 0.5 (Typesense ignores other values). */
export function diversityLambda(raw: string | undefined): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  return Math.fround(value >= 0 && value <= 1 ? value : 0.5);
}
