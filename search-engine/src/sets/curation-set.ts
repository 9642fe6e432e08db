import { ApiError } from '../api-error.js';
import { parseFilter } from '../filter/filter-parser.js';
import { tokenize } from '../text/tokenize.js';
import {
  type FieldValueLookup,
  fillPlaceholders,
  filterRuleParts,
  filterRuleTokens,
  hasPlaceholder,
  type RulePart,
  resolvePlaceholders,
  ruleQueryParts,
} from './dynamic-curation.js';

/** True when a filled-in dynamic filter is valid syntax (Typesense skips the filter of one that is not). */
function filterParses(filterBy: string): boolean {
  try {
    parseFilter(filterBy);
    return true;
  } catch {
    return false;
  }
}

/** A curation rule: a query (exact / contains), a filter, and/or tags. */
export interface CurationRule {
  query?: string;
  match?: 'exact' | 'contains';
  filter_by?: string;
  tags?: string[];
}

/** One curation item as Typesense 30 shows it (src/curation.cpp `curation_t::to_json`). */
export interface CurationItem {
  id: string;
  rule: CurationRule;
  includes: { id: string; position: number }[];
  excludes: { id: string }[];
  filter_by?: string;
  sort_by?: string;
  replace_query?: string;
  effective_from_ts?: number;
  effective_to_ts?: number;
  remove_matched_tokens: boolean;
  filter_curated_hits: boolean;
  stop_processing: boolean;
  metadata?: Record<string, unknown>;
  /** Typesense 30 `diversity`: MMR re-ranking of the results by these similarity metrics. */
  diversity?: { similarity_metric: SimilarityMetric[] };
}

/** One term of a `diversity` similarity: equal values, or Jaccard overlap of value sets, times `weight`. */
export interface SimilarityMetric {
  field: string;
  method: 'equality' | 'jaccard';
  weight: number;
}

/** JSON as nlohmann's `dump()` writes it (object keys sorted), for Typesense's messages that quote input. */
function dumpJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(dumpJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value as Record<string, unknown>).sort().map((key) => `${JSON.stringify(key)}:${dumpJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Parses a curation item's `diversity` like Typesense's `diversity_t::parse` (src/diversity.cpp):
 * `{"similarity_metric": [{"field", "method": "equality" | "jaccard", "weight"?: 1}]}`; `{}`
 * means none. Throws ApiError(400) with its messages.
 */
function parseDiversity(raw: unknown): CurationItem['diversity'] {
  if (!isPlainObject(raw)) throw new ApiError(400, `Invalid \`diversity\` format: ${dumpJson(raw)}`);
  if (Object.keys(raw).length === 0) return undefined;
  const metrics = raw.similarity_metric;
  if (metrics === undefined) throw new ApiError(400, `\`similarity_metric\` not found: ${dumpJson(raw)}`);
  if (!Array.isArray(metrics) || metrics.length === 0) throw new ApiError(400, `Invalid \`similarity_metric\` format: ${dumpJson(metrics)}`);
  const similarity_metric = metrics.map((metric): SimilarityMetric => {
    if (!isPlainObject(metric) || Object.keys(metric).length === 0) {
      throw new ApiError(400, `Invalid \`similarity_metric\` format, expected an object: ${dumpJson(metric)}`);
    }
    if (metric.field === undefined) throw new ApiError(400, `\`field\` not found: ${dumpJson(metric)}`);
    if (typeof metric.field !== 'string' || metric.field === '') throw new ApiError(400, `Invalid \`field\` format: ${dumpJson(metric.field)}`);
    if (metric.method === undefined) throw new ApiError(400, `\`method\` not found: ${dumpJson(metric)}`);
    if (typeof metric.method !== 'string' || metric.method === '') throw new ApiError(400, `Invalid \`method\` format: ${dumpJson(metric.method)}`);
    const method = metric.method.toLowerCase();
    if (method !== 'equality' && method !== 'jaccard') throw new ApiError(400, `\`method\` not found: ${dumpJson(metric)}`);
    // Typesense takes the weight as a float (JSON parsing here cannot tell 1 from 1.0).
    if (metric.weight !== undefined && (typeof metric.weight !== 'number' || !Number.isFinite(metric.weight))) {
      throw new ApiError(400, `Invalid \`weight\` format: ${dumpJson(metric.weight)}`);
    }
    // Typesense keeps the weight as a C++ float (answered back as that float's double value).
    return { field: metric.field, method, weight: metric.weight === undefined ? 1 : Math.fround(metric.weight as number) };
  });
  return { similarity_metric };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates one curation item with Typesense's messages and defaults
 * (`remove_matched_tokens` defaults to true only when the item has a `filter_by`;
 * `stop_processing` defaults to true). `id` comes from the URL for item routes.
 */
export function parseCurationItem(raw: unknown, idFromPath?: string): CurationItem {
  if (!isPlainObject(raw)) throw new ApiError(400, 'Bad JSON.');
  const rule = raw.rule;
  if (!isPlainObject(rule)) throw new ApiError(400, 'Missing `rule` definition.');
  if (rule.filter_by === undefined && rule.tags === undefined && (rule.query === undefined || rule.match === undefined)) {
    throw new ApiError(400, 'The `rule` definition must contain either a `tags` or a `query` and `match`.');
  }
  const actions = ['includes', 'excludes', 'filter_by', 'sort_by', 'remove_matched_tokens', 'metadata', 'replace_query', 'diversity'];
  if (!actions.some((key) => raw[key] !== undefined)) {
    throw new ApiError(400, 'Must contain one of: `includes`, `excludes`, `metadata`, `filter_by`, `sort_by`, `remove_matched_tokens`, `replace_query`.');
  }
  let tags: string[] | undefined;
  if (rule.tags !== undefined) {
    if (!Array.isArray(rule.tags) || rule.tags.some((t) => typeof t !== 'string')) throw new ApiError(400, 'The `tags` value must be an array of strings.');
    tags = [...new Set(rule.tags as string[])].sort();
  }
  const includes: CurationItem['includes'] = [];
  if (raw.includes !== undefined) {
    if (!Array.isArray(raw.includes)) throw new ApiError(400, 'The `includes` value must be an array.');
    for (const include of raw.includes) {
      if (!isPlainObject(include)) throw new ApiError(400, 'The `includes` value must be an array of objects.');
      if (include.id === undefined || include.position === undefined) throw new ApiError(400, 'Inclusion definition must define both `id` and `position` keys.');
      if (typeof include.id !== 'string') throw new ApiError(400, 'Inclusion `id` must be a string.');
      if (typeof include.position !== 'number' || !Number.isInteger(include.position)) throw new ApiError(400, 'Inclusion `position` must be an integer.');
      includes.push({ id: include.id, position: include.position });
    }
  }
  const excludes: CurationItem['excludes'] = [];
  if (raw.excludes !== undefined) {
    if (!Array.isArray(raw.excludes)) throw new ApiError(400, 'The `excludes` value must be an array.');
    for (const exclude of raw.excludes) {
      if (!isPlainObject(exclude)) throw new ApiError(400, 'The `excludes` value must be an array of objects.');
      if (exclude.id === undefined) throw new ApiError(400, 'Exclusion definition must define an `id`.');
      if (typeof exclude.id !== 'string') throw new ApiError(400, 'Exclusion `id` must be a string.');
      excludes.push({ id: exclude.id });
    }
  }
  if (raw.filter_by !== undefined) {
    if (typeof raw.filter_by !== 'string') throw new ApiError(400, 'The `filter_by` must be a string.');
    if (raw.filter_by === '') throw new ApiError(400, 'The `filter_by` must be a non-empty string.');
  }
  for (const key of ['remove_matched_tokens', 'filter_curated_hits', 'stop_processing']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'boolean') throw new ApiError(400, `The \`${key}\` must be a boolean.`);
  }
  const id = idFromPath ?? raw.id;
  if (id === undefined) throw new ApiError(400, 'Curation `id` not provided.');
  if (typeof id !== 'string') throw new ApiError(400, 'Curation `id` not provided.');
  if (rule.query !== undefined && typeof rule.query !== 'string') throw new ApiError(400, 'Curation `rule.query` must be a string.');
  if (rule.match !== undefined && rule.match !== 'exact' && rule.match !== 'contains') {
    throw new ApiError(400, 'Curation `rule.match` must be either `exact` or `contains`.');
  }
  if (rule.filter_by !== undefined && typeof rule.filter_by !== 'string') throw new ApiError(400, 'Curation `rule.filter_by` must be a string.');
  if (raw.sort_by !== undefined && typeof raw.sort_by !== 'string') throw new ApiError(400, 'The `sort_by` must be a string.');
  if (raw.replace_query !== undefined) {
    if (typeof raw.replace_query !== 'string') throw new ApiError(400, 'The `replace_query` must be a string.');
    if (raw.remove_matched_tokens === true) throw new ApiError(400, 'Only one of `replace_query` or `remove_matched_tokens` can be specified.');
  }
  if (raw.metadata !== undefined && !isPlainObject(raw.metadata)) throw new ApiError(400, 'The `metadata` must be a JSON object.');
  for (const key of ['effective_from_ts', 'effective_to_ts']) {
    if (raw[key] !== undefined && (typeof raw[key] !== 'number' || !Number.isInteger(raw[key]))) throw new ApiError(400, `The \`${key}\` must be an integer.`);
  }

  const parsedRule: CurationRule = {};
  if (typeof rule.query === 'string' && rule.query !== '') parsedRule.query = rule.query;
  if (rule.match === 'exact' || rule.match === 'contains') parsedRule.match = rule.match;
  if (typeof rule.filter_by === 'string' && rule.filter_by !== '') parsedRule.filter_by = rule.filter_by;
  if (tags && tags.length > 0) parsedRule.tags = tags;
  const item: CurationItem = {
    id,
    rule: parsedRule,
    includes,
    excludes,
    remove_matched_tokens: typeof raw.remove_matched_tokens === 'boolean' ? raw.remove_matched_tokens : raw.filter_by !== undefined,
    filter_curated_hits: raw.filter_curated_hits === true,
    stop_processing: raw.stop_processing !== false,
  };
  if (typeof raw.filter_by === 'string') item.filter_by = raw.filter_by;
  if (typeof raw.sort_by === 'string' && raw.sort_by !== '') item.sort_by = raw.sort_by;
  if (typeof raw.replace_query === 'string' && raw.replace_query !== '') item.replace_query = raw.replace_query;
  if (typeof raw.effective_from_ts === 'number') item.effective_from_ts = raw.effective_from_ts;
  if (typeof raw.effective_to_ts === 'number') item.effective_to_ts = raw.effective_to_ts;
  if (isPlainObject(raw.metadata) && Object.keys(raw.metadata).length > 0) item.metadata = raw.metadata;
  if (raw.diversity !== undefined) {
    const diversity = parseDiversity(raw.diversity);
    if (diversity) item.diversity = diversity;
  }
  return item;
}

/** What the matching curations ask of one search. */
export interface CurationOutcome {
  /** Document ids to pin, with 1-based positions, in rule order. */
  includes: { id: string; position: number }[];
  /** Document ids to hide (win over includes). */
  excludes: Set<string>;
  /** Extra filters, AND-combined with the request's `filter_by`. */
  filters: string[];
  /** Replaces the request's `sort_by` when set. */
  sortBy: string | undefined;
  /** The query to search instead of `q` (replace_query / remove_matched_tokens). */
  query: string | undefined;
  filterCuratedHits: boolean;
  /** Metadata of the first matching item. */
  metadata: Record<string, unknown> | undefined;
  /** `diversity` of the last matching item that has one (Typesense reads it only for items matched by `curation_tags`). */
  diversity: SimilarityMetric[] | undefined;
}

/** Folded words joined by one space: how rule queries and `q` are compared. */
export function normalizeQuery(q: string): string {
  return q.trim() === '*' ? '*' : tokenize(q).join(' ');
}

function containsWords(haystack: string, needle: string): boolean {
  if (needle === '') return false;
  return ` ${haystack} `.includes(` ${needle} `);
}

/**
 * Applies curation items to one search like Typesense's `Collection::curate_results`:
 * without `curation_tags` only untagged items (and items tagged `*`) are considered; with
 * several tags an item whose tags equal them all is preferred, else any overlap; an item
 * matches by exact/contained query, by equal `rule.filter_by`, or by tags alone; a rule with
 * `{field}` placeholders resolves against the collection's values through `fieldValues`
 * (without it such rules never match); `stop_processing` (default true) ends the walk at the
 * first match.
 */
export function applyCurations(
  items: CurationItem[],
  q: string,
  filterBy: string,
  tagList: string[],
  nowSeconds: number,
  fieldValues?: FieldValueLookup,
): CurationOutcome {
  const outcome: CurationOutcome = { includes: [], excludes: new Set(), filters: [], sortBy: undefined, query: undefined, filterCuratedHits: false, metadata: undefined, diversity: undefined };
  let query = normalizeQuery(q);
  const tags = new Set(tagList.map((t) => t.trim()).filter(Boolean));

  const tryItem = (item: CurationItem, tagsMatched: boolean, wildcardTag: boolean): boolean => {
    const itemTags = item.rule.tags ?? [];
    if (!wildcardTag && !tagsMatched && itemTags.length > 0) return false;
    if (item.effective_from_ts !== undefined && nowSeconds < item.effective_from_ts) return false;
    if (item.effective_to_ts !== undefined && nowSeconds > item.effective_to_ts) return false;
    if (hasPlaceholder(item.rule.query) || hasPlaceholder(item.rule.filter_by)) return tryDynamicItem(item);
    const ruleQuery = item.rule.query === undefined ? '' : normalizeQuery(item.rule.query);
    if (!((wildcardTag || tagsMatched) && item.rule.query === undefined && item.rule.filter_by === undefined)) {
      const filterMatch = item.rule.query === undefined && item.rule.match === undefined && item.rule.filter_by !== undefined && item.rule.filter_by === filterBy;
      const queryMatch = (item.rule.match === 'exact' && ruleQuery === query) || (item.rule.match === 'contains' && containsWords(query, ruleQuery));
      if (!filterMatch && !queryMatch) return false;
      if (item.rule.filter_by !== undefined && item.rule.filter_by !== filterBy) return false;
    }
    for (const exclude of item.excludes) outcome.excludes.add(exclude.id);
    for (const include of item.includes) if (!outcome.excludes.has(include.id)) outcome.includes.push(include);
    if (item.filter_by) outcome.filters.push(item.filter_by);
    if (item.replace_query !== undefined) {
      outcome.query = item.replace_query;
    } else if (item.remove_matched_tokens && item.filter_by === undefined && ruleQuery !== '') {
      query = query.split(ruleQuery).join('').replace(/\s+/g, ' ').trim();
      if (query === '') query = '*';
      outcome.query = query;
    } else if (item.remove_matched_tokens && item.filter_by !== undefined && ruleQuery !== '') {
      // A filtering rule (remove_matched_tokens defaults to true) drops the rule's words from the query.
      const ruleWords = new Set(ruleQuery.split(' '));
      const kept = query === '*' ? [] : query.split(' ').filter((word) => !ruleWords.has(word));
      query = kept.length === 0 ? '*' : kept.join(' ');
      outcome.query = query;
    }
    outcome.filterCuratedHits = item.filter_curated_hits;
    outcome.sortBy = item.sort_by;
    outcome.metadata ??= item.metadata;
    return true;
  };

  /**
   * A rule with `{field}` placeholders (Typesense `Index::process_filter_sort_curations`): only
   * items that filter or sort take part; a placeholder in `rule.query` resolves against the query
   * words (one in `rule.filter_by` against the request's `filter_by` values, same count of
   * values); the absorbed words fill the item's `filter_by` / `sort_by`. A resolved item adds that
   * filter (when it parses), its includes/excludes, its sort, its metadata, and with
   * `remove_matched_tokens` drops the absorbed words from the query.
   */
  const tryDynamicItem = (item: CurationItem): boolean => {
    if (!fieldValues || (item.filter_by === undefined && item.sort_by === undefined)) return false;
    let rule: RulePart[];
    let tokens: string[];
    if (hasPlaceholder(item.rule.query)) {
      rule = ruleQueryParts(item.rule.query as string);
      tokens = query.split(' ');
    } else {
      if (filterBy.trim() === '') return false;
      rule = filterRuleParts(item.rule.filter_by as string);
      tokens = filterRuleTokens(filterBy);
      if (rule.length !== tokens.length) return false;
    }
    const resolved = resolvePlaceholders(rule, tokens, item.rule.match === 'exact', fieldValues);
    if (!resolved) return false;
    outcome.metadata ??= item.metadata;
    const filter = item.filter_by === undefined ? '' : fillPlaceholders(item.filter_by, resolved);
    if (filter === '' || filterParses(filter)) {
      if (filter !== '') outcome.filters.push(filter);
      for (const exclude of item.excludes) outcome.excludes.add(exclude.id);
      for (const include of item.includes) if (!outcome.excludes.has(include.id)) outcome.includes.push(include);
      if (item.remove_matched_tokens && query !== '*') {
        const kept = query.split(' ').filter((word) => !resolved.absorbed.has(word));
        query = kept.length === 0 ? '*' : kept.join(' ');
        outcome.query = query;
      }
    }
    if (item.sort_by !== undefined) outcome.sortBy = fillPlaceholders(item.sort_by, resolved);
    return true;
  };

  if (tags.size > 0) {
    let allTagsFound = false;
    if (tags.size > 1) {
      for (const item of items) {
        const itemTags = item.rule.tags ?? [];
        if (itemTags.length !== tags.size || !itemTags.every((t) => tags.has(t))) continue;
        if (tryItem(item, true, false)) {
          allTagsFound = true;
          if (item.stop_processing) break;
        }
      }
    }
    if (!allTagsFound) {
      for (const item of items) {
        if (!(item.rule.tags ?? []).some((t) => tags.has(t))) continue;
        if (!tryItem(item, true, false)) continue;
        // Only this walk (tags overlapping, src/collection.cpp `curate_results`) takes an item's diversity.
        if (item.diversity) outcome.diversity = item.diversity.similarity_metric;
        if (item.stop_processing) break;
      }
    }
  } else {
    for (const item of items) {
      const wildcardTag = item.rule.tags?.length === 1 && item.rule.tags[0] === '*';
      if (tryItem(item, false, wildcardTag) && item.stop_processing) break;
    }
  }
  return outcome;
}
