import { DEFAULT_CALL_URLS, type IslandContext } from 'contracts';
import { newQueryId, rememberLastSearch } from './lastSearch.js';

/** One submitted search, once its answer arrived. */
export interface SubmittedSearch {
  /** The query as typed (the service normalises it). */
  query: string;
  hitCount: number;
  /** Facet attribute → chosen values (empty lists left out). Default none. */
  filters?: Record<string, readonly string[]>;
  /** Ids of the hits it showed (a later watchlist save of one is its conversion). Default none. */
  objectIds?: readonly string[];
  /** The search's query id (the one its click events carry). Default a fresh `newQueryId()`. */
  queryId?: string;
}

/** How a record leaves the page: a beacon survives the navigation a search often causes. */
export type SendSiteSearch = (url: string, body: string) => void;

function sendAsBeacon(url: string, body: string): void {
  // text/plain keeps it a "simple" request; the service reads the JSON from the text.
  if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, body)) return;
  void fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body, credentials: 'same-origin', keepalive: true }).catch((error: unknown) => {
    console.error('[mf-search] the site search could not be tracked', error);
  });
}

/** Only the filters actually applied, as plain lists. */
function appliedFilters(filters: SubmittedSearch['filters']): Record<string, string[]> {
  const applied: Record<string, string[]> = {};
  for (const [attribute, values] of Object.entries(filters ?? {})) {
    if (values.length > 0) applied[attribute] = [...values];
  }
  return applied;
}

/**
 * Site-search tracking for one submitted search: emits `search-submitted` on the bus (any
 * tracker on the page, e.g. the shell's Matomo queue, listens there) and, with the visitor's
 * `tracking` consent, sends `{ query, hitCount, filters, page }` to the search team's service
 * (`config.calls.siteSearch`, through the shell's edge). The page is the path only: no query
 * string, no visitor id. The search's query id and hits are kept in session storage (they never
 * leave the browser but in a conversion event, under the `insights` consent: `conversionTracking.ts`).
 * @returns The search's query id (`undefined` for an empty query).
 * @param send  Transport. Default `navigator.sendBeacon`, else `fetch` with `keepalive`.
 * @param pagePath  Path of the page. Default `window.location.pathname`.
 */
export function reportSiteSearch(
  context: Pick<IslandContext, 'bus' | 'config' | 'getConsent'>,
  search: SubmittedSearch,
  send: SendSiteSearch = sendAsBeacon,
  pagePath: string = window.location.pathname,
): string | undefined {
  const query = search.query.trim();
  if (query === '') return undefined;
  const queryId = search.queryId ?? newQueryId();
  rememberLastSearch({ queryId, objectIds: [...(search.objectIds ?? [])], at: Date.now() });
  context.bus.emit('search-submitted', { query, hitCount: search.hitCount });
  if (!context.getConsent().tracking) return queryId;
  // A shell built before contracts 1.5.0 names no siteSearch call: the default path is the service's.
  const url = context.config.calls.siteSearch ?? DEFAULT_CALL_URLS.siteSearch;
  send(url, JSON.stringify({ query, hitCount: search.hitCount, filters: appliedFilters(search.filters), page: pagePath, queryID: queryId }));
  return queryId;
}
