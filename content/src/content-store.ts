import { readFileSync } from 'node:fs';
import type { Survey } from 'contracts';
import type { Article } from './article.js';
import { articlesFileUrl, surveysFileUrl } from './content-paths.js';
import { ContentValidationError } from './content-validation-error.js';
import { TOPICS } from './topics.js';
import { validateArticle } from './validate-article.js';
import { validateSurvey } from './validate-survey.js';

interface LoadedContent {
  /** Newest first. */
  articles: Article[];
  articlesById: Map<string, Article>;
  surveys: Survey[];
  surveysByHandle: Map<string, Survey>;
  topics: string[];
}

let cache: LoadedContent | undefined;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value)) deepFreeze(nested);
  }
  return value;
}

function readJsonArray(url: URL, what: string): unknown[] {
  const parsed: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (!Array.isArray(parsed)) throw new Error(`${what} (${url.pathname}) must hold a JSON array`);
  return parsed;
}

/**
 * Reads and validates both JSON files once. A broken corpus throws here, at first use, instead of
 * rendering half-broken pages later; cross-references (unique ids, survey handles) are checked too.
 */
function load(): LoadedContent {
  if (cache) return cache;
  const surveys = readJsonArray(surveysFileUrl, 'surveys.json').map(validateSurvey);
  const surveysByHandle = new Map<string, Survey>();
  for (const survey of surveys) {
    if (surveysByHandle.has(survey.formHandle)) throw new Error(`surveys.json: duplicate formHandle "${survey.formHandle}"`);
    surveysByHandle.set(survey.formHandle, survey);
  }

  const articles = readJsonArray(articlesFileUrl, 'articles.json').map(validateArticle);
  const articlesById = new Map<string, Article>();
  for (const article of articles) {
    if (articlesById.has(article.id)) throw new Error(`articles.json: duplicate id "${article.id}"`);
    if (article.surveyHandle !== undefined && !surveysByHandle.has(article.surveyHandle)) {
      throw new ContentValidationError(`Invalid article "${article.id}"`, 'surveyHandle', `refers to unknown survey "${article.surveyHandle}"`);
    }
    articlesById.set(article.id, article);
  }
  // Newest first; ties (none in the seeded corpus) fall back to id for a stable order.
  articles.sort((a, b) => b.date - a.date || a.id.localeCompare(b.id));

  const used = new Set(articles.flatMap((a) => a.topic));
  const topics = TOPICS.filter((t) => used.has(t));

  cache = deepFreeze({ articles, articlesById, surveys, surveysByHandle, topics });
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

/** The topics used by the corpus, in the canonical order of {@link TOPICS}. */
export function listTopics(): string[] {
  return load().topics.slice();
}

/** All surveys in file order. */
export function listSurveys(): Survey[] {
  return load().surveys.slice();
}

/** The survey with this form handle, or `undefined`. */
export function getSurvey(handle: string): Survey | undefined {
  return load().surveysByHandle.get(handle);
}
