import type { LocalWatchlist } from './entities.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a local watchlist from untrusted data (local storage, a request body). Entries that
 * are not `{ title: string }` are dropped; anything that is not a watchlist gives an empty one.
 * `repaired` tells whether the input differed from the result (so the caller can rewrite it).
 */
export function readLocalWatchlist(value: unknown): { watchlist: LocalWatchlist; repaired: boolean } {
  if (!isRecord(value) || !isRecord(value.articles)) {
    return { watchlist: { articles: {} }, repaired: value !== null && value !== undefined };
  }
  const articles: LocalWatchlist['articles'] = {};
  let repaired = Object.keys(value).some((key) => key !== 'articles');
  for (const [id, entry] of Object.entries(value.articles)) {
    if (id.length > 0 && isRecord(entry) && typeof entry.title === 'string') {
      articles[id] = { title: entry.title };
      if (Object.keys(entry).length !== 1) repaired = true;
    } else {
      repaired = true;
    }
  }
  return { watchlist: { articles }, repaired };
}

/** Reads the submitted-survey handles from untrusted data; garbage gives an empty list. */
export function readSubmittedSurveys(value: unknown): { handles: string[]; repaired: boolean } {
  if (!Array.isArray(value)) return { handles: [], repaired: value !== null && value !== undefined };
  const handles = [...new Set(value.filter((item): item is string => typeof item === 'string' && item.length > 0))];
  return { handles, repaired: handles.length !== value.length };
}
