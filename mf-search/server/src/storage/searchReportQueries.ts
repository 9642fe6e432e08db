/**
 * The editors' report's figures (`report/` renders them), read from the service's own store (one source per figure: the
 * searches from `site_searches`, their clicks and conversions from `insights_events` by the
 * search's query id). Both dialects run the same statements; only the JSON and date functions
 * differ (`ReportDialect`).
 */

/** A closed-open range of milliseconds since the epoch: `[from, to)`. */
export interface ReportRange {
  from: number;
  to: number;
}

/** One query's figures. */
export interface QueryFigures {
  query: string;
  searches: number;
  /** Mean hit count of its searches. */
  averageHits: number;
  /** Searches of it that led to at least one click on a hit. */
  clickedSearches: number;
  /** Mean 1-based position of its clicks; `null` without clicks. */
  averageClickPosition: number | null;
  /** Searches of it followed by a watchlist save of one of its hits (a conversion). */
  convertedSearches: number;
}

/** The report's figures for a range. */
export interface SearchReportFigures {
  range: ReportRange;
  searches: number;
  noResultSearches: number;
  clickedSearches: number;
  convertedSearches: number;
  /** Most searched queries, most first (at most `limit`). */
  topQueries: QueryFigures[];
  /** Queries that found nothing, most searched first. */
  noResultQueries: Array<{ query: string; searches: number }>;
  /** Searches per UTC day (`YYYY-MM-DD`), every day of the range, oldest first. */
  searchesPerDay: Array<{ day: string; searches: number }>;
  /** Filters applied with a search (attribute and value), most used first. */
  topFilters: Array<{ attribute: string; value: string; searches: number }>;
}

/** What differs between SQLite and PostgreSQL in the report's statements. */
export interface ReportDialect {
  /** The first position of a click event (`positions_json`), as a number. */
  firstPosition(column: string): string;
  /** The UTC day (`YYYY-MM-DD`) of a millisecond timestamp. */
  utcDay(column: string): string;
  /** `FROM …` rows of (attribute, value) of a search's `filters_json`, as `f_attribute`, `f_value`. */
  filterRows(column: string): string;
}

export const SQLITE_REPORT_DIALECT: ReportDialect = {
  firstPosition: (column) => `json_extract(${column}, '$[0]')`,
  utcDay: (column) => `strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`,
  filterRows: (column) => `json_each(${column}) AS f, json_each(f.value) AS v`,
};

export const POSTGRES_REPORT_DIALECT: ReportDialect = {
  firstPosition: (column) => `((${column})::jsonb ->> 0)::double precision`,
  utcDay: (column) => `to_char(to_timestamp(${column} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  filterRows: (column) => `jsonb_each((${column})::jsonb) AS f(key, value), jsonb_array_elements_text(f.value) AS v(value)`,
};

/** Runs one statement with `?` placeholders and returns its rows. */
export type RunReportQuery = (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** How many rows each list of the report shows at most. */
export const REPORT_LIST_LIMIT = 20;
/** Most days one report covers (a year). */
export const MAX_REPORT_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The searches of the range, each with its clicks (count, position sum) and whether it converted. */
function perSearch(dialect: ReportDialect): string {
  return `
    per_search AS (
      SELECT s.id, s.query, s.hit_count,
        SUM(CASE WHEN e.event_type = 'click' THEN 1 ELSE 0 END) AS clicks,
        SUM(CASE WHEN e.event_type = 'click' THEN ${dialect.firstPosition('e.positions_json')} END) AS position_sum,
        MAX(CASE WHEN e.event_type = 'conversion' THEN 1 ELSE 0 END) AS converted
      FROM site_searches s
      LEFT JOIN insights_events e ON e.query_id = s.query_id AND e.event_type IN ('click', 'conversion')
      WHERE s.searched_at >= ? AND s.searched_at < ?
      GROUP BY s.id, s.query, s.hit_count
    )`;
}

const number = (value: unknown): number => Number(value ?? 0);

/** Every UTC day from `from` to `to` (exclusive), as `YYYY-MM-DD`. */
export function daysOf(range: ReportRange): string[] {
  const days: string[] = [];
  for (let day = Math.floor(range.from / DAY_MS) * DAY_MS; day < range.to && days.length < MAX_REPORT_DAYS; day += DAY_MS) {
    days.push(new Date(day).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The report's figures for `range`, read with `run` in `dialect`.
 * @param limit  Rows per list. Default `REPORT_LIST_LIMIT`.
 */
export async function readSearchReport(run: RunReportQuery, dialect: ReportDialect, range: ReportRange, limit: number = REPORT_LIST_LIMIT): Promise<SearchReportFigures> {
  const bounds = [range.from, range.to];
  // One pass over the range's searches and their events: every query's figures, most searched
  // first; the totals are their sums (so the join runs once).
  const perQuery = await run(
    `WITH ${perSearch(dialect)}
     SELECT query, COUNT(*) AS searches, AVG(hit_count) AS average_hits,
       SUM(CASE WHEN hit_count = 0 THEN 1 ELSE 0 END) AS no_result,
       SUM(CASE WHEN clicks > 0 THEN 1 ELSE 0 END) AS clicked,
       SUM(position_sum) AS position_sum, SUM(clicks) AS clicks,
       SUM(converted) AS converted
     FROM per_search GROUP BY query ORDER BY COUNT(*) DESC, query`,
    bounds,
  );
  const total = (column: string) => perQuery.reduce((sum, row) => sum + number(row[column]), 0);
  const noResults = await run(
    `SELECT query, COUNT(*) AS searches FROM site_searches
     WHERE searched_at >= ? AND searched_at < ? AND hit_count = 0
     GROUP BY query ORDER BY COUNT(*) DESC, query LIMIT ?`,
    [...bounds, limit],
  );
  const perDay = await run(
    `SELECT ${dialect.utcDay('searched_at')} AS day, COUNT(*) AS searches FROM site_searches
     WHERE searched_at >= ? AND searched_at < ? GROUP BY 1`,
    bounds,
  );
  const filters = await run(
    `SELECT f.key AS attribute, v.value AS value, COUNT(*) AS searches
     FROM site_searches s, ${dialect.filterRows('s.filters_json')}
     WHERE s.searched_at >= ? AND s.searched_at < ?
     GROUP BY f.key, v.value ORDER BY COUNT(*) DESC, f.key, v.value LIMIT ?`,
    [...bounds, limit],
  );
  const byDay = new Map(perDay.map((row) => [String(row.day), number(row.searches)]));
  return {
    range,
    searches: total('searches'),
    noResultSearches: total('no_result'),
    clickedSearches: total('clicked'),
    convertedSearches: total('converted'),
    topQueries: perQuery.slice(0, limit).map((row) => ({
      query: String(row.query),
      searches: number(row.searches),
      averageHits: number(row.average_hits),
      clickedSearches: number(row.clicked),
      averageClickPosition: number(row.clicks) > 0 ? number(row.position_sum) / number(row.clicks) : null,
      convertedSearches: number(row.converted),
    })),
    noResultQueries: noResults.map((row) => ({ query: String(row.query), searches: number(row.searches) })),
    searchesPerDay: daysOf(range).map((day) => ({ day, searches: byDay.get(day) ?? 0 })),
    topFilters: filters.map((row) => ({ attribute: String(row.attribute), value: String(row.value), searches: number(row.searches) })),
  };
}
