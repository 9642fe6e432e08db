import { readFileSync } from 'node:fs';
import type { Survey } from 'contracts';
import type { Article } from './article.js';
import { ArticleFolderReader, isPublicArticle } from './article-files/article-folder.js';
import type { ArticleProblem } from './article-files/parse-article-file.js';
import { TOPICS } from './topics.js';
import { validateSurvey } from './validate-survey.js';

/** Everything the content store serves, validated and indexed. */
export interface ContentSnapshot {
  /** Public articles (not drafts, date come), newest first. */
  articles: Article[];
  articlesById: Map<string, Article>;
  surveys: Survey[];
  surveysByHandle: Map<string, Survey>;
  /** Topics used by at least one public article, in canonical order. */
  topics: string[];
  /** Article files left out, with what is wrong in them. */
  problems: ArticleProblem[];
}

/**
 * Reads and validates the survey file (throws on a problem: surveys are code-reviewed data) and the
 * article folder (a bad file is left out and reported in `problems`, the others are served).
 */
export function readSurveys(surveysFile: string): Survey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(surveysFile, 'utf8'));
  } catch (error) {
    throw new Error(`surveys file (${surveysFile}) could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`surveys file (${surveysFile}) must hold a JSON array`);
  const surveys = parsed.map(validateSurvey);
  const handles = new Set<string>();
  for (const survey of surveys) {
    if (handles.has(survey.formHandle)) throw new Error(`surveys file: duplicate formHandle "${survey.formHandle}"`);
    handles.add(survey.formHandle);
  }
  return surveys;
}

/**
 * Reads the surveys and the article folder once: the public articles as of `nowMs` (default now).
 */
export function readContent(files: { articlesDir: string; surveys: string; imagesDir: string }, nowMs: number = Date.now()): ContentSnapshot {
  const surveys = readSurveys(files.surveys);
  const surveysByHandle = new Map(surveys.map((survey) => [survey.formHandle, survey]));
  const folder = new ArticleFolderReader(files.articlesDir, { surveyHandles: new Set(surveysByHandle.keys()), imagesDir: files.imagesDir }).read();
  const articles = folder.articles.filter((article) => isPublicArticle(article, nowMs));
  const articlesById = new Map(articles.map((article) => [article.id, article]));
  const used = new Set(articles.flatMap((a) => a.topic));
  const topics = TOPICS.filter((t) => used.has(t));
  return { articles, articlesById, surveys, surveysByHandle, topics, problems: folder.problems };
}
