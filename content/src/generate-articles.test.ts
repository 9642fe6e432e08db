import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentImagesDir,
  countWords,
  generateArticles,
  getSurvey,
  iterateGeneratedArticles,
  listArticles,
  TOPICS,
  validateArticle,
} from './index.js';

describe('generateArticles', () => {
  it('is deterministic: the same seed and count give identical output', () => {
    expect(generateArticles(300, { seed: 7 })).toEqual(generateArticles(300, { seed: 7 }));
    expect(generateArticles(50)).toEqual(generateArticles(50, { seed: 1 }));
  });

  it('gives different text for different seeds', () => {
    const a = generateArticles(50, { seed: 1 });
    const b = generateArticles(50, { seed: 2 });
    expect(a.map((x) => x.content)).not.toEqual(b.map((x) => x.content));
    expect(new Set([...a, ...b].map((x) => x.id)).size).toBe(100);
  });

  it('produces the requested number of valid articles with unique ids, urls and dates', () => {
    const articles = generateArticles(2000, { seed: 3 });
    expect(articles).toHaveLength(2000);
    for (const article of articles) expect(validateArticle(article)).toEqual(article);
    expect(new Set(articles.map((a) => a.id)).size).toBe(2000);
    expect(new Set(articles.map((a) => a.url)).size).toBe(2000);
    expect(new Set(articles.map((a) => a.date)).size).toBe(2000);
  });

  it('follows the corpus field rules', () => {
    const seededIds = new Set(listArticles().map((a) => a.id));
    const articles = generateArticles(1000, { seed: 11 });
    for (const a of articles) {
      expect(seededIds.has(a.id)).toBe(false);
      expect(a.readingTime).toBe(Math.max(1, Math.round(countWords(a.content) / 200)));
      expect(a.topic.every((t) => (TOPICS as readonly string[]).includes(t))).toBe(true);
      if (a.surveyHandle !== undefined) expect(getSurvey(a.surveyHandle)).toBeDefined();
      expect(a.content.split('\n\n').length).toBeGreaterThanOrEqual(3);
    }
    const withSurvey = articles.filter((a) => a.surveyHandle).length;
    expect(withSurvey).toBeGreaterThan(250);
    expect(withSurvey).toBeLessThan(420);
    expect(articles.some((a) => a.subline === undefined)).toBe(true);
    expect(articles.some((a) => a.gallery !== undefined)).toBe(true);
  });

  it('spreads dates over two years and does not emit them in date order', () => {
    const dates = generateArticles(500).map((a) => a.date);
    const span = Math.max(...dates) - Math.min(...dates);
    expect(span).toBeGreaterThan(700 * 24 * 3600);
    expect(span).toBeLessThanOrEqual(730 * 24 * 3600);
    expect([...dates].sort((x, y) => y - x)).not.toEqual(dates);
  });

  it('only references image files that exist on disk', () => {
    const urls = new Set(generateArticles(2000, { seed: 8 }).flatMap((a) => [a.image, ...(a.gallery ?? []).map((g) => g.src)]));
    for (const url of urls) expect(existsSync(join(contentImagesDir, url.replace('/content-images/', ''))), url).toBe(true);
  });

  it('varies titles and uses all topics', () => {
    const articles = generateArticles(3000, { seed: 5 });
    expect(new Set(articles.map((a) => a.title)).size).toBeGreaterThan(2500);
    expect(new Set(articles.flatMap((a) => a.topic))).toEqual(new Set(TOPICS));
  });

  it('streams lazily with the same articles as the array form', () => {
    const iterator = iterateGeneratedArticles(1_000_000, { seed: 9 });
    const first = iterator.next().value;
    expect(first?.id).toBe('gen-9-1');
    expect(first?.content).toBe(generateArticles(1, { seed: 9 })[0]?.content);
    expect(Array.from(iterateGeneratedArticles(20, { seed: 4 }))).toEqual(generateArticles(20, { seed: 4 }));
  });

  it('rejects invalid counts and seeds', () => {
    expect(() => generateArticles(-1)).toThrow(RangeError);
    expect(() => generateArticles(1.5)).toThrow(/count must be a non-negative integer/);
    expect(() => generateArticles(1, { seed: 0.5 })).toThrow(/seed must be an integer/);
    expect(generateArticles(0)).toEqual([]);
  });
});
