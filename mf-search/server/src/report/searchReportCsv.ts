import type { SearchReportFigures } from '../storage/searchReportQueries.js';
import { conversionRate, clickThroughRate } from './reportRates.js';

/**
 * A CSV cell: quoted when needed, and a text a spreadsheet would run as a formula (a visitor's
 * query starting with `=`, `+`, `-`, `@`, tab or CR) kept as text with a leading `'`.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const row = (cells: Array<string | number | null>) => cells.map(csvCell).join(',');
const rounded = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));

/** The queries table as CSV (RFC 4180, CRLF): one row per query with its counts and rates. */
export function queriesCsv(figures: SearchReportFigures): string {
  const lines = [row(['query', 'searches', 'average_hits', 'clicked_searches', 'click_through_rate', 'average_click_position', 'converted_searches', 'conversion_rate'])];
  for (const query of figures.topQueries) {
    lines.push(
      row([
        query.query,
        query.searches,
        rounded(query.averageHits, 1),
        query.clickedSearches,
        rounded(clickThroughRate(query), 4),
        rounded(query.averageClickPosition, 2),
        query.convertedSearches,
        rounded(conversionRate(query), 4),
      ]),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Searches per day as CSV. */
export function searchesPerDayCsv(figures: SearchReportFigures): string {
  return `${[row(['day', 'searches']), ...figures.searchesPerDay.map((day) => row([day.day, day.searches]))].join('\r\n')}\r\n`;
}
