/** Share of searches that led to a click on a hit (0–1); `null` without searches. */
export function clickThroughRate(figures: { searches: number; clickedSearches: number }): number | null {
  return figures.searches > 0 ? figures.clickedSearches / figures.searches : null;
}

/** Share of searches followed by a watchlist save of one of their hits (0–1); `null` without searches. */
export function conversionRate(figures: { searches: number; convertedSearches: number }): number | null {
  return figures.searches > 0 ? figures.convertedSearches / figures.searches : null;
}

/** A rate as the report shows it: `50%`, `33.3%`, `–` for none. */
export function percent(rate: number | null): string {
  if (rate === null) return '–';
  const value = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)}%`;
}
