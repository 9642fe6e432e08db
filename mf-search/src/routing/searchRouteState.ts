import type { UiState } from 'instantsearch.js';
import { QUERY_STRING_ARRAY_LIMIT } from 'contracts';
import { cutQuery } from '../autocomplete/useAutocomplete.js';

/** What the address keeps: `?q=…&page=2&topic=A&topic=B` (one repeated key per facet). */
export type SearchRouteState = { q?: string; page?: number } & { [facetAttribute: string]: unknown };

function stringList(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((item): item is string => typeof item === 'string' && item !== '').slice(0, QUERY_STRING_ARRAY_LIMIT);
}

/** UI state of the index -> route state (only what a visitor would share). */
export function uiStateToRoute(uiState: UiState, indexName: string, facetAttributes: string[]): SearchRouteState {
  const state = uiState[indexName] ?? {};
  const route: SearchRouteState = {};
  if (state.query) route.q = state.query;
  if (state.page && state.page > 1) route.page = state.page;
  for (const attribute of facetAttributes) {
    const values = state.refinementList?.[attribute];
    if (values && values.length > 0) route[attribute] = values;
  }
  return route;
}

/** Route state (untrusted: it comes from the address) -> UI state of the index. */
export function routeToUiState(route: SearchRouteState, indexName: string, facetAttributes: string[]): UiState {
  const refinementList: Record<string, string[]> = {};
  for (const attribute of facetAttributes) {
    const values = stringList(route[attribute]);
    if (values.length > 0) refinementList[attribute] = values;
  }
  const page = Number(route.page);
  return {
    [indexName]: {
      ...(typeof route.q === 'string' && route.q !== '' ? { query: cutQuery(route.q) } : {}),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
      ...(Object.keys(refinementList).length > 0 ? { refinementList } : {}),
    },
  };
}

/**
 * Address of a route state on `path` (`/search?q=a&page=2&topic=A&topic=B`): what the router
 * writes, built without a window so the server and the browser render the same link.
 */
export function routeHref(path: string, route: SearchRouteState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(route)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') params.append(key, String(item));
    }
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
