import type { LocalWatchlist } from 'contracts';
import type { Article } from '@khs/content';
import type { WatchlistContent } from './watchlistContent.js';

/**
 * The content-store articles of a watchlist, in the watchlist's order. Ids the store does not
 * know (deleted articles, forged ids) are dropped.
 */
export function resolveWatchlist(watchlist: LocalWatchlist, content: Pick<WatchlistContent, 'getArticle'>): Article[] {
  const articles: Article[] = [];
  for (const id of Object.keys(watchlist.articles)) {
    const article = content.getArticle(id);
    if (article) articles.push(article);
  }
  return articles;
}
