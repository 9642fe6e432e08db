/**
 * Public API of `@khs/content`: the seeded article corpus, surveys, locally served images and the
 * deterministic article generator.
 */
export type { Article, GalleryImage } from './article.js';
export { listArticles, getArticle, listTopics, listSurveys, getSurvey, siteArticleFolderOptions } from './content-store.js';
export {
  contentImagesDir,
  CONTENT_IMAGES_BASE_URL,
  contentMediaDir,
  CONTENT_MEDIA_BASE_URL,
  SITE_INTRO_VIDEO_URL,
  defaultArticlesDir,
  articlesDirFromEnv,
  surveysFile,
  CONTENT_ARTICLE_IMAGES_BASE_URL,
  ARTICLE_IMAGE_EXTENSIONS,
  articleImageUrl,
  articleImagePathOf,
} from './content-paths.js';
export { validateArticle } from './validate-article.js';
export { readContent, readSurveys, type ContentSnapshot } from './read-content.js';
export * from './article-files/index.js';
export { validateSurvey } from './validate-survey.js';
export { ContentValidationError } from './content-validation-error.js';
export { generateArticles, iterateGeneratedArticles, type GenerateArticlesOptions } from './generate-articles.js';
export { createRandom, type Random } from './prng.js';
export { TOPICS, type Topic, isTopic, topicSlug } from './topics.js';
export { computeReadingTime, countWords, readingTimeForWordCount, WORDS_PER_MINUTE } from './reading-time.js';
