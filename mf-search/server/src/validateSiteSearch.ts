/** Longest query kept (characters after normalising); the search server refuses far shorter ones anyway. */
export const MAX_TRACKED_QUERY_LENGTH = 256;
/** Most filter attributes, and values per attribute, one tracked search may carry. */
export const MAX_TRACKED_FILTER_ATTRIBUTES = 8;
export const MAX_TRACKED_FILTER_VALUES = 20;
/** Longest filter attribute or value. */
export const MAX_TRACKED_FILTER_TEXT_LENGTH = 128;
/** Longest page path (the path only: no query string, no fragment). */
export const MAX_TRACKED_PAGE_LENGTH = 256;
/** Most hits a tracked search may report (the search server's own counts fit easily). */
export const MAX_TRACKED_HIT_COUNT = 10_000_000;

const BODY_KEYS = new Set(['query', 'hitCount', 'filters', 'page', 'queryID']);
const FILTER_ATTRIBUTE_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const IDENTIFIER_PATTERN = /^[A-Za-z0-9_.:~-]{1,128}$/;
/** A site path: starts with one slash, printable, no query string or fragment (they may hold anything). */
const PAGE_PATTERN = /^\/(?!\/)[^\s?#\\]*$/;

/** One submitted search as stored. */
export interface SiteSearch {
  /** Normalised (`normaliseTrackedQuery`). */
  query: string;
  hitCount: number;
  /** Facet attribute → chosen values, both sorted. */
  filters: Record<string, string[]>;
  /** Path of the page it was submitted on. */
  page: string;
  /** The search's own random id (links later clicks and conversions to it); not a visitor id. */
  queryId?: string;
  /** Milliseconds since the epoch, from the service's clock. */
  searchedAt: number;
}

/** Validation outcome: the search to store, or the first problem found. */
export type SiteSearchValidation = { ok: true; search: SiteSearch } | { ok: false; error: string };

/**
 * How a query is counted: Unicode NFKC, lower case, inner whitespace collapsed, trimmed. "KPI",
 * " kpi " and "Ｋｐｉ" are one query in the report.
 */
export function normaliseTrackedQuery(query: string): string {
  return query.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/gu, ' ').trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateFilters(filters: unknown): Record<string, string[]> | string {
  if (filters === undefined) return {};
  if (!isRecord(filters)) return 'filters must be an object of attribute → list of values';
  const entries = Object.entries(filters);
  if (entries.length > MAX_TRACKED_FILTER_ATTRIBUTES) return `filters may name at most ${MAX_TRACKED_FILTER_ATTRIBUTES} attributes`;
  const sorted: Record<string, string[]> = {};
  for (const [attribute, values] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (attribute.length > MAX_TRACKED_FILTER_TEXT_LENGTH || !FILTER_ATTRIBUTE_PATTERN.test(attribute)) return `filters.${attribute.slice(0, 40)} is not an attribute name`;
    if (!Array.isArray(values) || values.length === 0 || values.length > MAX_TRACKED_FILTER_VALUES) return `filters.${attribute} must list 1 to ${MAX_TRACKED_FILTER_VALUES} values`;
    if (!values.every((value) => typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TRACKED_FILTER_TEXT_LENGTH)) {
      return `filters.${attribute} values must be texts of 1 to ${MAX_TRACKED_FILTER_TEXT_LENGTH} characters`;
    }
    sorted[attribute] = [...new Set(values as string[])].sort();
  }
  return sorted;
}

/**
 * Strictly validates one site-search record `{ query, hitCount, filters?, page, queryID? }`:
 * no unknown fields; the query normalised and 1 to `MAX_TRACKED_QUERY_LENGTH` characters; a
 * whole hit count; filters as attribute → values; the page a path of this site. Nothing in it
 * names the visitor.
 * @param now  The service's clock, the search's time. Default `Date.now()`.
 */
export function validateSiteSearch(body: unknown, now: number = Date.now()): SiteSearchValidation {
  if (!isRecord(body)) return { ok: false, error: 'The body must be { query, hitCount, filters?, page, queryID? }' };
  const unknownKey = Object.keys(body).find((key) => !BODY_KEYS.has(key));
  if (unknownKey) return { ok: false, error: `${unknownKey.slice(0, 40)} is not a known field` };
  const { query, hitCount, filters, page, queryID } = body;
  if (typeof query !== 'string') return { ok: false, error: 'query must be a text' };
  const normalised = normaliseTrackedQuery(query);
  if (normalised === '' || normalised.length > MAX_TRACKED_QUERY_LENGTH) return { ok: false, error: `query must be 1 to ${MAX_TRACKED_QUERY_LENGTH} characters` };
  if (!Number.isSafeInteger(hitCount) || (hitCount as number) < 0 || (hitCount as number) > MAX_TRACKED_HIT_COUNT) {
    return { ok: false, error: `hitCount must be a whole number from 0 to ${MAX_TRACKED_HIT_COUNT}` };
  }
  if (typeof page !== 'string' || page.length > MAX_TRACKED_PAGE_LENGTH || !PAGE_PATTERN.test(page)) {
    return { ok: false, error: `page must be a path of this site (/…, no query string) of at most ${MAX_TRACKED_PAGE_LENGTH} characters` };
  }
  if (queryID !== undefined && (typeof queryID !== 'string' || !IDENTIFIER_PATTERN.test(queryID))) {
    return { ok: false, error: 'queryID must be 1 to 128 characters of letters, digits or _.:~-' };
  }
  const checkedFilters = validateFilters(filters);
  if (typeof checkedFilters === 'string') return { ok: false, error: checkedFilters };
  return {
    ok: true,
    search: { query: normalised, hitCount: hitCount as number, filters: checkedFilters, page, ...(queryID !== undefined ? { queryId: queryID as string } : {}), searchedAt: now },
  };
}
