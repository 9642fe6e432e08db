import { SEARCH_SET_DOCS } from './searchSetDocs.js';
import { queriesCsv, searchesPerDayCsv } from './searchReportCsv.js';
import type { SearchReportFigures } from '../storage/searchReportQueries.js';
import { clickThroughRate, conversionRate, percent } from './reportRates.js';
import { SearchesPerDayChart } from './SearchesPerDayChart.js';
import { RerankingSection, type RerankingView } from './RerankingSection.js';

/** The range as the form shows it: first and last day, both included. */
export interface ReportDays {
  from: string;
  to: string;
}

const csvHref = (csv: string) => `data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`;
const position = (value: number | null) => (value === null ? '–' : value.toFixed(1));

/** The date range form (a GET form: it works without JavaScript). */
function RangeForm({ days, error }: { days: ReportDays; error?: string | undefined }) {
  return (
    <form className="search-report__range" method="get" aria-label="Date range">
      <label>
        From <input type="date" name="from" defaultValue={days.from} required aria-describedby={error ? 'search-report-range-error' : undefined} />
      </label>
      <label>
        To <input type="date" name="to" defaultValue={days.to} required />
      </label>
      <button type="submit">Show</button>
      {error ? (
        <p id="search-report-range-error" className="search-report__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** A page that is not the report: the token is missing or wrong, or the range cannot be read. */
export function SearchReportRefusal({ heading, text, days, error }: { heading: string; text: string; days?: ReportDays; error?: string }) {
  return (
    <section className="search-report" aria-labelledby="search-report-title">
      <h1 id="search-report-title">{heading}</h1>
      <p>{text}</p>
      {days ? <RangeForm days={days} error={error} /> : null}
    </section>
  );
}

/**
 * The editors' search report for a date range: totals, searches per day (SVG chart and table),
 * top queries with click-through rate, average click position and conversion rate, queries that
 * found nothing (each with what an editor can do: a synonym or a curation rule), top filters, and
 * CSV exports. Plain HTML: it reads without JavaScript.
 */
export function SearchReportPage({ figures, days, reranking, editorToken = '' }: {
  figures: SearchReportFigures;
  days: ReportDays;
  /** The learned re-ranking's queries and switches; undefined: re-ranking is off (popularity off). */
  reranking?: RerankingView | undefined;
  /** The token the editor presented: it signs the re-ranking switches. Default none. */
  editorToken?: string;
}) {
  return (
    <section className="search-report" aria-labelledby="search-report-title">
      <h1 id="search-report-title">Search report</h1>
      <p>
        What visitors searched for on the site from {days.from} to {days.to} (UTC), from the search team&apos;s own records: no personal data.
      </p>
      <RangeForm days={days} />

      <h2>Overview</h2>
      <dl className="search-report__totals">
        <div>
          <dt>Searches</dt>
          <dd data-figure="searches">{figures.searches}</dd>
        </div>
        <div>
          <dt>Searches without results</dt>
          <dd data-figure="no-result-searches">{figures.noResultSearches}</dd>
        </div>
        <div>
          <dt>Click-through rate</dt>
          <dd data-figure="click-through-rate">{percent(clickThroughRate(figures))}</dd>
        </div>
        <div>
          <dt>Conversion rate (watchlist saves after a search)</dt>
          <dd data-figure="conversion-rate">{percent(conversionRate(figures))}</dd>
        </div>
      </dl>

      <h2 id="search-report-per-day">Searches per day</h2>
      <SearchesPerDayChart days={figures.searchesPerDay} id="search-report-chart" />
      <details>
        <summary>Searches per day as a table</summary>
        <table>
          <caption>Searches per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Searches</th>
            </tr>
          </thead>
          <tbody>
            {figures.searchesPerDay.map((day) => (
              <tr key={day.day}>
                <th scope="row">{day.day}</th>
                <td>{day.searches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>

      <h2 id="search-report-top-queries">Top queries</h2>
      {figures.topQueries.length === 0 ? (
        <p>No searches in this range.</p>
      ) : (
        <table className="search-report__queries" aria-labelledby="search-report-top-queries">
          <thead>
            <tr>
              <th scope="col">Query</th>
              <th scope="col">Searches</th>
              <th scope="col">Average hits</th>
              <th scope="col">Click-through rate</th>
              <th scope="col">Average click position</th>
              <th scope="col">Conversion rate</th>
            </tr>
          </thead>
          <tbody>
            {figures.topQueries.map((query) => (
              <tr key={query.query} data-query={query.query}>
                <th scope="row">{query.query}</th>
                <td data-column="searches">{query.searches}</td>
                <td data-column="average-hits">{query.averageHits.toFixed(1)}</td>
                <td data-column="click-through-rate">{percent(clickThroughRate(query))}</td>
                <td data-column="average-click-position">{position(query.averageClickPosition)}</td>
                <td data-column="conversion-rate">{percent(conversionRate(query))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <RerankingSection view={reranking} days={days} editorToken={editorToken} />

      <h2 id="search-report-no-results">Queries without results</h2>
      {figures.noResultQueries.length === 0 ? (
        <p>Every search in this range found something.</p>
      ) : (
        <>
          <p>
            Each of these found nothing. Point it at the right articles with a synonym or a curation rule in the search team&apos;s sets (
            <code>mf-search/server/search-sets/</code>).
          </p>
          <table className="search-report__no-results" aria-labelledby="search-report-no-results">
            <thead>
              <tr>
                <th scope="col">Query</th>
                <th scope="col">Searches</th>
                <th scope="col">What to do</th>
              </tr>
            </thead>
            <tbody>
              {figures.noResultQueries.map((query) => (
                <tr key={query.query} data-query={query.query}>
                  <th scope="row">{query.query}</th>
                  <td data-column="searches">{query.searches}</td>
                  <td>
                    <a href={SEARCH_SET_DOCS.synonyms}>
                      Add a synonym<span className="search-report__hidden"> for “{query.query}”</span>
                    </a>{' '}
                    ·{' '}
                    <a href={SEARCH_SET_DOCS.curations}>
                      Add a curation rule<span className="search-report__hidden"> for “{query.query}”</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h2 id="search-report-filters">Top filters</h2>
      {figures.topFilters.length === 0 ? (
        <p>No filters were applied with a search in this range.</p>
      ) : (
        <table aria-labelledby="search-report-filters">
          <thead>
            <tr>
              <th scope="col">Filter</th>
              <th scope="col">Value</th>
              <th scope="col">Searches</th>
            </tr>
          </thead>
          <tbody>
            {figures.topFilters.map((filter) => (
              <tr key={`${filter.attribute}\u0000${filter.value}`}>
                <th scope="row">{filter.attribute}</th>
                <td>{filter.value}</td>
                <td>{filter.searches}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Export</h2>
      <ul>
        <li>
          <a href={csvHref(queriesCsv(figures))} download={`search-queries-${days.from}-${days.to}.csv`}>
            Top queries as CSV
          </a>
        </li>
        <li>
          <a href={csvHref(searchesPerDayCsv(figures))} download={`searches-per-day-${days.from}-${days.to}.csv`}>
            Searches per day as CSV
          </a>
        </li>
      </ul>
    </section>
  );
}

/** The report's own CSS (scoped to its classes; the shell puts it in the head). */
export const SEARCH_REPORT_STYLES = `
.search-report table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
.search-report th, .search-report td { border-bottom: 1px solid #d0d5db; padding: 0.35rem 0.75rem; text-align: left; }
.search-report td[data-column] { text-align: right; }
.search-report__totals { display: flex; flex-wrap: wrap; gap: 1rem 2rem; }
.search-report__totals dt { font-weight: 600; }
.search-report__totals dd { margin: 0; font-size: 1.5rem; }
.search-report__range { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; margin: 1rem 0; }
.search-report__error { flex-basis: 100%; color: #a4000f; margin: 0; }
.search-report__chart { display: block; width: 100%; max-width: 40rem; height: auto; }
.search-report__bar { fill: #0b5cad; }
.search-report__axis { stroke: #5a6470; }
.search-report__tick { font-size: 11px; fill: #3d4550; }
.search-report__lifted { margin: 0; padding-left: 1rem; }
.search-report__switch { margin: 0; }
.search-report__notice { border-left: 4px solid #0b5cad; padding: 0.25rem 0.75rem; }
.search-report__hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
