export { renderArticleBody, escapeMarkdownText, type RenderedBody, type BodyImage } from './markdown.js';
export {
  parseArticleFile,
  parseArticleDate,
  formatArticleDate,
  formatArticleProblem,
  formatLiveArticleProblem,
  ARTICLE_ID_PATTERN,
  FRONT_MATTER_KEYS,
  type ArticleProblem,
  type ArticleFileContext,
  type ParsedArticleFile,
} from './parse-article-file.js';
export {
  ArticleFolderReader,
  assembleArticleFolder,
  isPublicArticle,
  type ArticleFolderSnapshot,
  type ArticleFolderOptions,
  type ArticleFileEntry,
  type ArticleFolderFiles,
} from './article-folder.js';
export { createLiveArticleStore, type LiveArticleStore, type LiveArticleStoreOptions } from './live-article-store.js';
export { previewPath, verifyPreviewLink, PREVIEW_PATH_PREFIX, PREVIEW_SECRET_MIN_LENGTH } from './preview-link.js';
export { articleFileText } from './article-file-text.js';
