import { readLocalWatchlist } from 'contracts';
import type { SharedWatchlistArticles } from './watchlistShareRepository.js';

/**
 * Serialises shared articles as JSON text. Text (not jsonb) keeps the entry order, which is
 * the order the visitor added them.
 */
export function sharedArticlesToJson(articles: SharedWatchlistArticles): string {
  const clean: SharedWatchlistArticles = {};
  for (const [id, entry] of Object.entries(articles)) clean[id] = { title: entry.title };
  return JSON.stringify(clean);
}

/** Parses stored JSON text back; anything malformed gives only its valid entries. */
export function sharedArticlesFromJson(text: string): SharedWatchlistArticles {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  return readLocalWatchlist({ articles: parsed }).watchlist.articles;
}
