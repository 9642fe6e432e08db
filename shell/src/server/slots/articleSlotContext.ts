import type { ArticleSlotContext } from 'contracts';
import type { Article } from '../content/contentStore.js';

/** What the article slots offer their islands: the article's id, title and topics. */
export function articleSlotContext(article: Article): ArticleSlotContext {
  return { articleId: article.id, title: article.title, topics: article.topic };
}
