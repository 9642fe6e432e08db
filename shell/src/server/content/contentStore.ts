import type { Survey } from 'contracts';
import * as content from '@khs/content';
import type { Article } from '@khs/content';

export type { Article };

/** What the shell reads from the content store. Tests may pass their own. */
export interface ContentStore {
  /** Every article, newest first. */
  listArticles(): Article[];
  getArticle(id: string): Article | undefined;
  getSurvey(formHandle: string): Survey | undefined;
}

/** The repository's content store (`@khs/content`). */
export const repositoryContentStore: ContentStore = {
  listArticles: () => content.listArticles(),
  getArticle: (id) => content.getArticle(id),
  getSurvey: (handle) => content.getSurvey(handle),
};
