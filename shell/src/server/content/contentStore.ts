import * as content from '@khs/content';
import type { Article } from '@khs/content';

export type { Article };

/** What the shell reads from the content store. Tests may pass their own. */
export interface ContentStore {
  /** Every public article (not a draft, its date come), newest first. */
  listArticles(): Article[];
  /** A public article, or undefined. */
  getArticle(id: string): Article | undefined;
  /** Any article, drafts and scheduled ones too: only for signed preview links. Default: none. */
  getArticleForPreview?(id: string): Article | undefined;
  /** Changes whenever what visitors see changes (for caches); derived from the content, so alike in every instance. */
  version?(): string;
  /** Calls `listener` after each change of `version()` (synchronously); returns the unsubscribe function. The shell re-tags its pages then. Default: never called. */
  onChange?(listener: (version: string) => void): () => void;
}

/**
 * The content store of a running site: the article folder (`CONTENT_DIR`) read and watched, so a saved,
 * added or removed file and a scheduled article that comes due reach the pages without a restart.
 * Bad files are left out (a broken edit keeps the last good version); the others are served. The
 * search service logs the problems, once for the site (`content/README.md`), not every shell.
 */
export function createLiveContentStore(contentDir: string): ContentStore & { close(): void; onChange(listener: (version: string) => void): () => void } {
  const store = content.createLiveArticleStore({ dir: contentDir, ...content.siteArticleFolderOptions() });
  return {
    listArticles: () => store.publicArticles(),
    getArticle: (id) => store.getPublicArticle(id),
    getArticleForPreview: (id) => store.getArticle(id),
    version: () => store.version(),
    onChange: (listener) => store.onChange(listener),
    close: () => store.close(),
  };
}

/** The checkout's articles as read once at first use (`@khs/content`); tests use it. */
export const repositoryContentStore: ContentStore = {
  listArticles: () => content.listArticles(),
  getArticle: (id) => content.getArticle(id),
};
