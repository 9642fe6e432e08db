import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ContentValidationError, readContent } from './index.js';

const survey = { formHandle: 'poll', question: 'Yes or no?', answers: [{ position: 1, label: 'Yes' }, { position: 2, label: 'No' }] };
const article = (id: string, date: number, extra: Record<string, unknown> = {}) => ({
  id,
  headline: 'Headline',
  title: `Title ${id}`,
  intro: 'Intro.',
  content: 'Body.',
  image: '/content-images/default.svg',
  topic: ['Coaching'],
  date,
  url: `/articles/${id}`,
  readingTime: 1,
  cta: 'Read article',
  imageAlt: 'Alt',
  ...extra,
});

function files(articles: unknown, surveys: unknown = [survey]): { articles: URL; surveys: URL } {
  const dir = mkdtempSync(join(tmpdir(), 'khs-content-read-'));
  writeFileSync(join(dir, 'articles.json'), typeof articles === 'string' ? articles : JSON.stringify(articles));
  writeFileSync(join(dir, 'surveys.json'), JSON.stringify(surveys));
  return { articles: pathToFileURL(join(dir, 'articles.json')), surveys: pathToFileURL(join(dir, 'surveys.json')) };
}

describe('readContent', () => {
  it('indexes valid files and sorts articles newest first', () => {
    const snapshot = readContent(files([article('old', 100), article('new', 300, { surveyHandle: 'poll' }), article('mid', 200)]));
    expect(snapshot.articles.map((a) => a.id)).toEqual(['new', 'mid', 'old']);
    expect(snapshot.articlesById.get('mid')?.title).toBe('Title mid');
    expect(snapshot.surveysByHandle.get('poll')).toEqual(survey);
    expect(snapshot.topics).toEqual(['Coaching']);
  });

  it('fails loudly on a bad article field, naming the article and the field', () => {
    expect(() => readContent(files([article('ok', 1), article('broken', 2, { readingTime: '3' })]))).toThrow(
      'Invalid article "broken": field "readingTime" must be a positive integer',
    );
  });

  it('fails on duplicate ids and unknown survey handles', () => {
    expect(() => readContent(files([article('same', 1), article('same', 2)]))).toThrow(/duplicate id "same"/);
    expect(() => readContent(files([article('a', 1, { surveyHandle: 'nope' })]))).toThrow(ContentValidationError);
    expect(() => readContent(files([article('a', 1, { surveyHandle: 'nope' })]))).toThrow(/"surveyHandle" refers to unknown survey "nope"/);
  });

  it('fails on unreadable or non-array files', () => {
    expect(() => readContent(files('{ not json'))).toThrow(/articles file .* could not be read/);
    expect(() => readContent(files({ id: 'x' }))).toThrow(/must hold a JSON array/);
    expect(() => readContent(files([], [survey, survey]))).toThrow(/duplicate formHandle "poll"/);
  });
});
