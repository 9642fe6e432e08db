import { describe, expect, it } from 'vitest';
import type { Article } from '@khs/content';
import { relatedArticles } from './relatedArticles.js';

const article = (id: string, date: number, ...topic: string[]): Article => ({
  id,
  headline: id,
  title: id,
  intro: '',
  content: '',
  image: '/i.svg',
  imageAlt: '',
  topic,
  date,
  url: `/articles/${id}`,
  readingTime: 1,
  cta: 'Read',
});

// Newest first, as the content store lists them.
const all = [
  article('n1', 9, 'Coaching'),
  article('saved-a', 8, 'Leadership', 'Coaching'),
  article('n2', 7, 'Negotiation'),
  article('n3', 6, 'Leadership'),
  article('saved-b', 5, 'Agile'),
  article('n4', 4, 'Agile', 'Feedback'),
  article('n5', 3, 'Feedback'),
];
const saved = all.filter((a) => a.id.startsWith('saved'));

describe('relatedArticles', () => {
  it('answers articles sharing a topic with a saved one, newest first, never a saved one', () => {
    expect(relatedArticles(saved, all, 10).map((a) => a.id)).toEqual(['n1', 'n3', 'n4']);
  });

  it('stops at the maximum', () => {
    expect(relatedArticles(saved, all, 2).map((a) => a.id)).toEqual(['n1', 'n3']);
  });

  it('answers nothing for an empty watchlist', () => {
    expect(relatedArticles([], all, 6)).toEqual([]);
  });
});
