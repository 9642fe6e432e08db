/**
 * Regenerates `data/articles.json` from the hand-written specs and paragraph banks in `corpus/`.
 * Deterministic: running it twice gives a byte-identical file. Run: `npm run build:corpus -w @khs/content`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { articlesFileUrl, surveysFileUrl } from '../src/content-paths.js';
import { createRandom } from '../src/prng.js';
import { validateArticle } from '../src/validate-article.js';
import { validateSurvey } from '../src/validate-survey.js';
import { ARTICLE_SPECS } from './corpus/article-specs.js';
import { composeArticle } from './corpus/compose-article.js';

/** Newest article date: 2026-11-15 09:00 UTC. Fixed so the corpus does not change with the clock. */
const NEWEST_DATE = Date.UTC(2026, 10, 15, 9, 0, 0) / 1000;
const SPAN_SECONDS = 730 * 24 * 3600;

const surveyHandles = new Set(
  (JSON.parse(readFileSync(surveysFileUrl, 'utf8')) as unknown[]).map((s) => validateSurvey(s).formHandle),
);

// Publication order is shuffled once (fixed seed) so topics are mixed over time.
const order = createRandom(20261115).sample(ARTICLE_SPECS, ARTICLE_SPECS.length);
const step = Math.floor(SPAN_SECONDS / order.length);
const jitter = createRandom(7);
const articles = order.map((spec, index) => {
  // Jitter stays below a third of the step, so dates remain distinct and ordered.
  const date = NEWEST_DATE - index * step - jitter.int(Math.floor(step / 3));
  const article = validateArticle(composeArticle(spec, date));
  if (article.surveyHandle !== undefined && !surveyHandles.has(article.surveyHandle)) {
    throw new Error(`${article.id}: unknown survey handle ${article.surveyHandle}`);
  }
  return article;
});

writeFileSync(articlesFileUrl, `${JSON.stringify(articles, null, 2)}\n`);
console.log(`wrote ${articles.length} articles to ${articlesFileUrl.pathname}`);
