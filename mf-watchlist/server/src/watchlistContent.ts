import { getArticle, listArticles, type Article } from '@khs/content';

/** What the watchlist service reads of the content store. Tests may pass their own. */
export interface WatchlistContent {
  /** Every article, newest first. */
  listArticles(): Article[];
  getArticle(id: string): Article | undefined;
}

/** The repository's content store (`@khs/content`). */
export const repositoryContent: WatchlistContent = { listArticles: () => listArticles(), getArticle: (id) => getArticle(id) };
