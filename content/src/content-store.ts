import type { Survey } from 'contracts';
import type { Article } from './article.js';
import { articlesFileUrl, surveysFileUrl } from './content-paths.js';
import { type ContentSnapshot, readContent } from './read-content.js';

let cache: ContentSnapshot | undefined;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value) && !(value instanceof Map)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
}

/** Loads the seeded files once; a broken corpus throws here, at first use, instead of rendering broken pages. */
function load(): ContentSnapshot {
  if (!cache) {
    const snapshot = readContent({ articles: articlesFileUrl, surveys: surveysFileUrl });
    // Articles and surveys are shared between callers, so they are frozen against accidental edits.
    snapshot.articles.forEach(deepFreeze);
    snapshot.surveys.forEach(deepFreeze);
    cache = snapshot;
  }
  return cache;
}

/**
 * All seeded articles, newest first (by `date`). Returns a new array each call; the article objects
 * are shared and frozen, so copy one before changing it.
 */
export function listArticles(): Article[] {
  return load().articles.slice();
}

/** The article with this id, or `undefined`. */
export function getArticle(id: string): Article | undefined {
  return load().articlesById.get(id);
}

/** The topics used by the corpus, in the canonical order of `TOPICS`. */
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
