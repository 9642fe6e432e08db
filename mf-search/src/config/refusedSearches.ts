import type { TypesenseMultiSearchResponse } from './snippetOnlyFields.js';

/**
 * A search the server refused because of what the visitor asked for (too many words, too long a
 * query, a page or filter it cannot take) is an answer, not a failure: the list shows a message
 * and the page, on the server and in the browser, renders as for any other answer. Everything
 * else the server refuses (401/403 key, 404 collection, 408 time budget, 429, 5xx, no answer) is
 * a failure of the search: it rejects, with a one-line error.
 */

/** Statuses of a visitor-caused refusal (Typesense: 400 bad parameter, 413/414 too large, 422 unprocessable). */
export const VISITOR_REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 413, 414, 422]);

/** Key in a refused answer's `metadata` (InstantSearch `results.userData[0]`) holding the server's reason. */
export const REFUSED_SEARCH_KEY = 'khsRefusedSearch';

/** The list's text for a refused search (what the visitor can do about it). */
export const REFUSED_SEARCH_TEXT = 'This search could not be run. Try fewer or shorter words.';

/** One InstantSearch request as the adapter receives it (the parts read here). */
export interface InstantSearchRequestLike {
  indexName?: string;
  params?: { query?: string; page?: number; hitsPerPage?: number; facetName?: string };
}

/** A search that failed for a reason other than the visitor's input: one line, no stack (it is logged per request). */
export class SearchFailedError extends Error {
  constructor(
    message: string,
    /** The search server's status, when it answered. */
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'SearchFailedError';
    // The adapter logs every failed search with `console.error`; on a server that runs a search
    // per page view a stack per line is noise. The status and message say what failed.
    this.stack = `${this.name}: ${message}`;
  }
}

/** An empty Typesense answer for `request`, marked as refused with `reason`. */
function refusedAnswer(request: InstantSearchRequestLike | undefined, reason: string): Record<string, unknown> {
  const params = request?.params ?? {};
  return {
    hits: [],
    found: 0,
    out_of: 0,
    page: (params.page ?? 0) + 1,
    request_params: { per_page: params.hitsPerPage ?? 0, q: params.query ?? '' },
    search_time_ms: 0,
    // A facet-value search reads the counts of the facet it asked for.
    facet_counts: params.facetName ? [{ field_name: params.facetName, counts: [], stats: {} }] : [],
    metadata: { [REFUSED_SEARCH_KEY]: reason },
  };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown } | null)?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Sends the requests with `perform` and turns visitor-caused refusals into empty answers marked
 * `REFUSED_SEARCH_KEY` (per search slot, or all of them when the whole request was refused).
 * @throws SearchFailedError when the server failed otherwise (a slot or the whole request).
 */
export async function answerRefusedSearches(
  requests: readonly InstantSearchRequestLike[],
  perform: () => Promise<TypesenseMultiSearchResponse>,
): Promise<TypesenseMultiSearchResponse> {
  let response: TypesenseMultiSearchResponse;
  try {
    response = await perform();
  } catch (error) {
    const status = statusOf(error);
    const message = (error as Error)?.message ?? String(error);
    if (status !== undefined && VISITOR_REFUSAL_STATUSES.has(status)) {
      return { results: requests.map((request) => refusedAnswer(request, message)) };
    }
    throw new SearchFailedError(`search failed${status === undefined ? '' : ` (${status})`}: ${message}`, status);
  }
  const results = response.results.map((result, index) => {
    const code = typeof result.code === 'number' ? result.code : undefined;
    if (result.error === undefined && code === undefined) return result;
    const reason = String(result.error ?? 'refused');
    if (code !== undefined && VISITOR_REFUSAL_STATUSES.has(code)) return refusedAnswer(requests[index], reason) as typeof result;
    throw new SearchFailedError(`search failed (${code ?? 'no status'}): ${reason}`, code);
  });
  return { ...response, results };
}

/** The server's reason when InstantSearch `results` is a refused search (`answerRefusedSearches`), else undefined. */
export function refusedSearchReason(results: { userData?: unknown } | null | undefined): string | undefined {
  const userData = results?.userData;
  if (!Array.isArray(userData)) return undefined;
  for (const entry of userData) {
    const reason = (entry as Record<string, unknown> | null)?.[REFUSED_SEARCH_KEY];
    if (typeof reason === 'string') return reason;
  }
  return undefined;
}
