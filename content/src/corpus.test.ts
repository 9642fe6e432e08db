import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  computeReadingTime,
  contentImagesDir,
  countWords,
  getArticle,
  getSurvey,
  listArticles,
  listTopics,
  TOPICS,
  validateArticle,
} from './index.js';

const articles = listArticles();
const TWO_YEARS_AND_A_MONTH = 760 * 24 * 3600;

function imageFile(url: string): string {
  expect(url.startsWith('/content-images/')).toBe(true);
  return join(contentImagesDir, url.slice('/content-images/'.length));
}

describe('seeded article corpus', () => {
  it('holds at least 60 articles that all pass validation', () => {
    expect(articles.length).toBeGreaterThanOrEqual(60);
    for (const article of articles) expect(validateArticle(article)).toEqual(article);
  });

  it('has unique, URL-safe ids and matching urls', () => {
    expect(new Set(articles.map((a) => a.id)).size).toBe(articles.length);
    expect(new Set(articles.map((a) => a.url)).size).toBe(articles.length);
    for (const a of articles) {
      expect(a.id).toMatch(/^[a-z0-9-]+$/);
      expect(a.url).toBe(`/articles/${a.id}`);
      expect(encodeURIComponent(a.id)).toBe(a.id);
    }
  });

  it('gives every article every search-hit field with the right type', () => {
    for (const a of articles) {
      for (const field of ['id', 'headline', 'title', 'intro', 'content', 'image', 'url', 'cta', 'imageAlt'] as const) {
        expect(typeof a[field], `${a.id}.${field}`).toBe('string');
        expect(a[field].trim().length, `${a.id}.${field}`).toBeGreaterThan(0);
      }
      expect(Number.isInteger(a.date)).toBe(true);
      expect(Number.isInteger(a.readingTime)).toBe(true);
      expect(a.topic.length).toBeGreaterThanOrEqual(1);
      expect(a.topic.length).toBeLessThanOrEqual(3);
      for (const t of a.topic) expect(TOPICS).toContain(t);
    }
  });

  it('exercises the optional subline: some articles have one, some do not', () => {
    const withSubline = articles.filter((a) => a.subline !== undefined);
    expect(withSubline.length).toBeGreaterThan(0);
    expect(withSubline.length).toBeLessThan(articles.length);
    for (const a of withSubline) expect(a.subline?.trim()).not.toBe('');
  });

  it('has intros of 1-3 sentences and bodies of several paragraphs of 250-600 words', () => {
    for (const a of articles) {
      const sentences = a.intro.split(/(?<=[.!?])\s+/).length;
      expect(sentences, a.id).toBeGreaterThanOrEqual(1);
      expect(sentences, a.id).toBeLessThanOrEqual(3);
      expect(a.content.split('\n\n').length, a.id).toBeGreaterThanOrEqual(4);
      expect(countWords(a.content), a.id).toBeGreaterThanOrEqual(250);
      expect(countWords(a.content), a.id).toBeLessThanOrEqual(600);
    }
  });

  it('has no two articles with the same body', () => {
    expect(new Set(articles.map((a) => a.content)).size).toBe(articles.length);
    expect(new Set(articles.map((a) => a.title)).size).toBe(articles.length);
  });

  it('computes readingTime from the body word count at 200 wpm, at least 1', () => {
    for (const a of articles) {
      expect(a.readingTime, a.id).toBe(Math.max(1, Math.round(countWords(a.content) / 200)));
      expect(a.readingTime).toBe(computeReadingTime(a.content));
    }
  });

  it('lists articles newest first with distinct dates spread over about two years', () => {
    const dates = articles.map((a) => a.date);
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
    expect(new Set(dates).size).toBe(dates.length);
    const newest = dates[0] as number;
    const oldest = dates.at(-1) as number;
    expect(newest - oldest).toBeGreaterThan(365 * 24 * 3600);
    expect(newest - oldest).toBeLessThan(TWO_YEARS_AND_A_MONTH);
  });

  it('resolves every survey handle, and about a third of the articles have one', () => {
    const withSurvey = articles.filter((a) => a.surveyHandle !== undefined);
    for (const a of withSurvey) expect(getSurvey(a.surveyHandle as string), a.id).toBeDefined();
    expect(withSurvey.length).toBeGreaterThanOrEqual(Math.floor(articles.length / 4));
    expect(withSurvey.length).toBeLessThanOrEqual(Math.ceil(articles.length / 2));
  });

  it('points every image and gallery picture at an SVG file on disk with width, height and viewBox', () => {
    const urls = articles.flatMap((a) => [a.image, ...(a.gallery ?? []).map((g) => g.src)]);
    expect(articles.some((a) => (a.gallery?.length ?? 0) > 0)).toBe(true);
    for (const url of new Set(urls)) {
      const file = imageFile(url);
      expect(existsSync(file), url).toBe(true);
      expect(statSync(file).size).toBeLessThan(20_000);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toMatch(/^<svg [^>]*width="\d+" height="\d+" viewBox="0 0 \d+ \d+"/);
    }
  });

  it('contains literal markup in some titles/intros for escaping tests', () => {
    expect(articles.some((a) => a.title.includes('<script>alert(1)</script>'))).toBe(true);
    expect(articles.some((a) => a.title.includes('<b>') && a.intro.includes('<b>'))).toBe(true);
  });

  it('contains words with diacritics for diacritic-folding tests', () => {
    const text = articles.map((a) => `${a.title} ${a.intro} ${a.content}`).join(' ');
    for (const word of ['Café-Gespräche', 'naïve', 'Führung', 'résumé']) expect(text).toContain(word);
  });

  it('uses every topic of the fixed list, and listTopics returns them in canonical order', () => {
    expect(listTopics()).toEqual([...TOPICS]);
  });
});

describe('content store lookups', () => {
  it('finds an article by id and returns undefined for unknown ids', () => {
    const first = articles[0];
    expect(first).toBeDefined();
    expect(getArticle(first?.id as string)).toEqual(first);
    expect(getArticle('no-such-article')).toBeUndefined();
    expect(getArticle('')).toBeUndefined();
  });

  it('returns a fresh array each call and protects the cached articles from mutation', () => {
    const list = listArticles();
    list.pop();
    expect(listArticles().length).toBe(articles.length);
    const article = getArticle(articles[0]?.id as string);
    expect(() => {
      (article as { title: string }).title = 'changed';
    }).toThrow(TypeError);
  });
});
