import type { Article } from '../../src/article.js';
import { createRandom } from '../../src/prng.js';
import { validateArticle } from '../../src/validate-article.js';
import { ARTICLE_SPECS } from './article-specs.js';
import { composeArticle } from './compose-article.js';

/** Newest seeded article date: 2026-11-15 09:00 UTC. Fixed so the corpus does not change with the clock. */
export const NEWEST_SEEDED_DATE = Date.UTC(2026, 10, 15, 9, 0, 0) / 1000;
const SPAN_SECONDS = 730 * 24 * 3600;

/**
 * Composes every seeded article from its spec, newest first. Pure and deterministic: the result is
 * exactly what `data/articles.json` must contain (a test guards against drift).
 */
export function buildArticles(): Article[] {
  // Publication order is shuffled once (fixed seed) so topics are mixed over time.
  const order = createRandom(20261115).sample(ARTICLE_SPECS, ARTICLE_SPECS.length);
  const step = Math.floor(SPAN_SECONDS / order.length);
  const jitter = createRandom(7);
  return order.map((spec, index) => {
    // Jitter stays below a third of the step, so dates remain distinct and in order.
    const date = NEWEST_SEEDED_DATE - index * step - jitter.int(Math.floor(step / 3));
    return validateArticle(composeArticle(spec, date));
  });
}
