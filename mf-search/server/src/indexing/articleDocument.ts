import type { Article } from '@khs/content';

/**
 * Version of the article-to-document mapping below and of the collection schema: raise it when either
 * changes, and the next sync re-sends every article (a sync otherwise sends only changed files).
 */
export const ARTICLE_DOCUMENT_VERSION = 2;

/**
 * The search document of an article: only the search-hit fields (gallery, survey, HTML stay in the
 * content store), and `popularity` 0: an edited article starts again from 0 until the popularity
 * updater's next refresh writes its score (within `SEARCH_POPULARITY_REFRESH_SECONDS`).
 */
export function articleDocument(article: Article): Record<string, unknown> {
  const { id, headline, title, subline, intro, content, image, topic, date, url, readingTime, cta } = article;
  const document: Record<string, unknown> = { id, headline, title, intro, content, image, topic, date, url, readingTime, cta, popularity: 0 };
  if (subline !== undefined) document.subline = subline;
  return document;
}
