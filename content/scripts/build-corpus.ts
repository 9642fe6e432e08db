/**
 * Regenerates `data/articles.json` from the hand-written specs and paragraph banks in `corpus/`.
 * Deterministic: running it twice gives a byte-identical file. Run: `npm run build:corpus -w @khs/content`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { articlesFileUrl, surveysFileUrl } from '../src/content-paths.js';
import { validateSurvey } from '../src/validate-survey.js';
import { buildArticles } from './corpus/build-articles.js';

const surveyHandles = new Set(
  (JSON.parse(readFileSync(surveysFileUrl, 'utf8')) as unknown[]).map((s) => validateSurvey(s).formHandle),
);
const articles = buildArticles();
for (const article of articles) {
  if (article.surveyHandle !== undefined && !surveyHandles.has(article.surveyHandle)) {
    throw new Error(`${article.id}: unknown survey handle ${article.surveyHandle}`);
  }
}
writeFileSync(articlesFileUrl, `${JSON.stringify(articles, null, 2)}\n`);
console.log(`wrote ${articles.length} articles to ${articlesFileUrl.pathname}`);
