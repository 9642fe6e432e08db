import type { Article } from '@khs/content';

/**
 * Articles related to the saved ones: those sharing at least one topic with a saved article,
 * never a saved one, newest first, at most `max`.
 * @param candidates every article, newest first (as `ContentStore.listArticles` answers)
 */
export function relatedArticles(saved: readonly Article[], candidates: readonly Article[], max: number): Article[] {
  const savedIds = new Set(saved.map((article) => article.id));
  const topics = new Set(saved.flatMap((article) => article.topic));
  const related: Article[] = [];
  if (topics.size === 0 || max <= 0) return related;
  for (const candidate of candidates) {
    if (savedIds.has(candidate.id) || !candidate.topic.some((topic) => topics.has(topic))) continue;
    related.push(candidate);
    if (related.length >= max) break;
  }
  return related;
}
