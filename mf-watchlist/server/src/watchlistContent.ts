import { contentImagesDir, createLiveArticleStore, getArticle, listArticles, listSurveys, type Article } from '@khs/content';

/** What the watchlist service reads of the content store. Tests may pass their own. */
export interface WatchlistContent {
  /** Every article, newest first. */
  listArticles(): Article[];
  getArticle(id: string): Article | undefined;
}

/** The repository's content store (`@khs/content`), read once at first use. */
export const repositoryContent: WatchlistContent = { listArticles: () => listArticles(), getArticle: (id) => getArticle(id) };

/**
 * The article folder read and watched (the content package's live store, as the shell and the
 * search indexer use it): a saved, added or removed file reaches resolve, the PDF and the related
 * articles in well under a second, a scheduled article within 30 s of its date, without a restart.
 * Bad files are left out (a broken edit keeps the last good version), as in every reader; the search
 * service logs them, once for the site. Only public articles (no drafts, date come) are served.
 */
export function createLiveWatchlistContent(dir: string): WatchlistContent & { close(): void } {
  const store = createLiveArticleStore({
    dir,
    surveyHandles: new Set(listSurveys().map((survey) => survey.formHandle)),
    imagesDir: contentImagesDir,
  });
  return {
    listArticles: () => store.publicArticles(),
    getArticle: (id) => store.getPublicArticle(id),
    close: () => store.close(),
  };
}
