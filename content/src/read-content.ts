import { readFileSync } from 'node:fs';
import type { Survey } from 'contracts';
import type { Article } from './article.js';
import { ContentValidationError } from './content-validation-error.js';
import { TOPICS } from './topics.js';
import { validateArticle } from './validate-article.js';
import { validateSurvey } from './validate-survey.js';

/** Everything the content store serves, validated and indexed. */
export interface ContentSnapshot {
  /** Newest first. */
  articles: Article[];
  articlesById: Map<string, Article>;
  surveys: Survey[];
  surveysByHandle: Map<string, Survey>;
  /** Topics used by at least one article, in canonical order. */
  topics: string[];
}

function readJsonArray(url: URL, what: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(url, 'utf8'));
  } catch (error) {
    throw new Error(`${what} (${url.pathname}) could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${what} (${url.pathname}) must hold a JSON array`);
  return parsed;
}

/**
 * Reads and validates the article and survey files, including cross-references (unique ids and
 * handles, survey handles that resolve). Throws on the first problem so a broken corpus fails loudly.
 */
export function readContent(files: { articles: URL; surveys: URL }): ContentSnapshot {
  const surveys = readJsonArray(files.surveys, 'surveys file').map(validateSurvey);
  const surveysByHandle = new Map<string, Survey>();
  for (const survey of surveys) {
    if (surveysByHandle.has(survey.formHandle)) throw new Error(`surveys file: duplicate formHandle "${survey.formHandle}"`);
    surveysByHandle.set(survey.formHandle, survey);
  }

  const articles = readJsonArray(files.articles, 'articles file').map(validateArticle);
  const articlesById = new Map<string, Article>();
  for (const article of articles) {
    if (articlesById.has(article.id)) throw new Error(`articles file: duplicate id "${article.id}"`);
    if (article.surveyHandle !== undefined && !surveysByHandle.has(article.surveyHandle)) {
      throw new ContentValidationError(`Invalid article "${article.id}"`, 'surveyHandle', `refers to unknown survey "${article.surveyHandle}"`);
    }
    articlesById.set(article.id, article);
  }
  // Newest first; equal dates fall back to id for a stable order.
  articles.sort((a, b) => b.date - a.date || a.id.localeCompare(b.id));

  const used = new Set(articles.flatMap((a) => a.topic));
  const topics = TOPICS.filter((t) => used.has(t));
  return { articles, articlesById, surveys, surveysByHandle, topics };
}
