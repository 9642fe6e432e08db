import { ApiError } from '../api-error.js';

/**
 * Bounds on the work one request may ask for. Each is a Typesense-style 4xx
 * with a `message`; filter clause count and nesting depth are bounded by the
 * filter parser (`DEFAULT_FILTER_LIMITS`: 100 clauses, 16 levels).
 */
export interface RequestLimits {
  /** Most searches in one `multi_search` for search-only and scoped keys (they cannot raise it). Default 50. */
  maxMultiSearches: number;
  /**
   * Longest `q`, in characters. Default 4096: room for a pasted paragraph (a 100-word query of
   * ordinary words is ~700 characters). There is no word limit: as in Typesense, the typo and
   * drop-words work of a long query is bounded to its first words (`src/search/text-match.ts`).
   */
  maxQueryLength: number;
  /** Longest `highlight_start_tag` / `highlight_end_tag`. Default 64. */
  maxHighlightTagLength: number;
  /** Longest value of any other search parameter. Default 8192. */
  maxParameterLength: number;
  /** Sum of `per_page` over the searches of one request. Default 1000. */
  maxHitsPerRequest: number;
  /** Largest response of one search request. Default 16 MiB. */
  maxResponseBytes: number;
  /** Largest body of a search request (`multi_search`). Default 1 MiB. */
  maxSearchBodyBytes: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxMultiSearches: 50,
  maxQueryLength: 4096,
  maxHighlightTagLength: 64,
  maxParameterLength: 8192,
  maxHitsPerRequest: 1000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxSearchBodyBytes: 1024 * 1024,
};

const HIGHLIGHT_TAGS = ['highlight_start_tag', 'highlight_end_tag'];

/**
 * Checks one search's merged parameters against the limits; the error goes
 * into that search's slot.
 */
export function checkSearchParams(params: Record<string, string>, limits: RequestLimits): void {
  for (const [key, value] of Object.entries(params)) {
    if (key === 'q') {
      if (value.length > limits.maxQueryLength) throw new ApiError(400, `Parameter \`q\` is longer than ${limits.maxQueryLength} characters.`);
    } else if (HIGHLIGHT_TAGS.includes(key)) {
      if (value.length > limits.maxHighlightTagLength) throw new ApiError(400, `Parameter \`${key}\` is longer than ${limits.maxHighlightTagLength} characters.`);
    } else if (value.length > limits.maxParameterLength) {
      throw new ApiError(400, `Parameter \`${key}\` is longer than ${limits.maxParameterLength} characters.`);
    }
  }
}

/** Hits one search may return (its `per_page`, Typesense's default 10; invalid values are the search's own error). */
function requestedHits(params: Record<string, string>): number {
  const raw = params.per_page;
  if (raw === undefined || raw.trim() === '') return params.facet_query?.trim() ? 0 : 10;
  return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : 0;
}

/** Refuses a request whose searches together ask for more hits than allowed. */
export function checkHitsPerRequest(searches: Record<string, string>[], limits: RequestLimits): void {
  let total = 0;
  for (const params of searches) total += requestedHits(params);
  if (total > limits.maxHitsPerRequest) {
    throw new ApiError(400, `The searches of one request ask for ${total} hits (sum of \`per_page\`); at most ${limits.maxHitsPerRequest} are allowed.`);
  }
}

/**
 * The effective `limit_multi_searches`: the admin key may set any value;
 * search-only and scoped keys get their embedded value or the query's, never
 * above the server's maximum (as a Typesense key's own limit applies).
 */
export function multiSearchLimit(isAdmin: boolean, embedded: Record<string, string>, query: Record<string, string>, limits: RequestLimits): number {
  const raw = embedded.limit_multi_searches ?? query.limit_multi_searches;
  const requested = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : limits.maxMultiSearches;
  return isAdmin ? requested : Math.min(requested, limits.maxMultiSearches);
}
