import type { Survey } from 'contracts';
import type { Article } from './article.js';
import { articlesDirFromEnv, contentImagesDir, surveysFile } from './content-paths.js';
import { type ContentSnapshot, readContent } from './read-content.js';
import type { ArticleFolderOptions } from './article-files/article-folder.js';

let cache: ContentSnapshot | undefined;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value) && !(value instanceof Map)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
}

/**
 * Reads the article folder (`CONTENT_DIR`, default `content/articles`) and surveys once, at first use.
 * A process that must follow edits while it runs uses `createLiveArticleStore` instead.
 */
function load(): ContentSnapshot {
  if (!cache) {
    const snapshot = readContent({ articlesDir: articlesDirFromEnv(), surveys: surveysFile, imagesDir: contentImagesDir });
    // Surveys are shared between callers, so they are frozen against accidental edits (articles are frozen when read).
    snapshot.surveys.forEach(deepFreeze);
    cache = snapshot;
  }
  return cache;
}

/**
 * The public articles (not drafts, date come) as read at first use, newest first. Returns a new array
 * each call; the article objects are shared and frozen, so copy one before changing it.
 */
export function listArticles(): Article[] {
  return load().articles.slice();
}

/** The public article with this id, or `undefined`. */
export function getArticle(id: string): Article | undefined {
  return load().articlesById.get(id);
}

/** The topics used by the public articles, in the canonical order of `TOPICS`. */
export function listTopics(): string[] {
  return load().topics.slice();
}

/** All surveys in file order (frozen objects, fresh array). */
export function listSurveys(): Survey[] {
  return load().surveys.slice();
}

/** The survey with this form handle, or `undefined`. */
export function getSurvey(handle: string): Survey | undefined {
  return load().surveysByHandle.get(handle);
}

/**
 * What the site's article folder is checked against (the surveys' handles, the images folder): the
 * options a process following the folder gives `createLiveArticleStore` or `ArticleFolderReader`
 * besides the folder, so it needs to know none of them.
 */
export function siteArticleFolderOptions(): ArticleFolderOptions {
  return { surveyHandles: new Set(listSurveys().map((survey) => survey.formHandle)), imagesDir: contentImagesDir };
}
