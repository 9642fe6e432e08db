import type { ReportRange, SearchReportFigures } from './searchReportQueries.js';
import type { SiteSearch } from '../validateSiteSearch.js';

/** Submitted searches (site-search tracking). */
export interface SiteSearchRepository {
  /** Stores one search. */
  store(search: SiteSearch): Promise<void>;
  /** Every stored search, oldest first (tests and small reports). */
  list(): Promise<SiteSearch[]>;
  /** The editors' report's figures for a range (searches with their clicks and conversions). */
  report(range: ReportRange): Promise<SearchReportFigures>;
}

/** The columns of a stored search, in order; both dialects insert them so. */
export const SITE_SEARCH_COLUMNS = 'query, hit_count, filters_json, page_path, query_id, searched_at';

/** A search's values for `SITE_SEARCH_COLUMNS`. */
export function siteSearchRow(search: SiteSearch): unknown[] {
  return [search.query, search.hitCount, JSON.stringify(search.filters), search.page, search.queryId ?? null, Math.trunc(search.searchedAt)];
}

/** A stored row back as a search (PostgreSQL returns BIGINT as text). */
export function siteSearchOfRow(row: { query: string; hit_count: number | string; filters_json: string; page_path: string; query_id: string | null; searched_at: number | string }): SiteSearch {
  return {
    query: row.query,
    hitCount: Number(row.hit_count),
    filters: JSON.parse(row.filters_json) as Record<string, string[]>,
    page: row.page_path,
    ...(row.query_id !== null ? { queryId: row.query_id } : {}),
    searchedAt: Number(row.searched_at),
  };
}

/** The columns `siteSearchOfRow` reads. */
export const SITE_SEARCH_SELECT = `SELECT ${SITE_SEARCH_COLUMNS} FROM site_searches ORDER BY searched_at, id`;
