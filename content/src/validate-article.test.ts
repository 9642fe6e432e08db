import { describe, expect, it } from 'vitest';
import { ContentValidationError, validateArticle } from './index.js';

const valid = {
  id: 'sample-article',
  headline: 'A headline',
  title: 'A title',
  subline: 'A subline',
  intro: 'An intro sentence.',
  content: 'First paragraph.\n\nSecond paragraph.',
  image: '/content-images/topic-leadership.svg',
  topic: ['Leadership', 'Coaching'],
  date: 1_760_000_000,
  url: '/articles/sample-article',
  readingTime: 1,
  cta: 'Read article',
  imageAlt: 'Illustration',
};

function errorOf(input: unknown): ContentValidationError {
  try {
    validateArticle(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ContentValidationError);
    return error as ContentValidationError;
  }
  throw new Error('expected validateArticle to throw');
}

describe('validateArticle', () => {
  it('accepts a well-formed article and returns an equal copy', () => {
    const result = validateArticle(valid);
    expect(result).toEqual(valid);
    expect(result).not.toBe(valid);
  });

  it('accepts an article without the optional fields', () => {
    const { subline: _subline, ...withoutSubline } = valid;
    expect(validateArticle(withoutSubline).subline).toBeUndefined();
  });

  it('drops unknown extra fields', () => {
    expect(validateArticle({ ...valid, extra: 1 })).not.toHaveProperty('extra');
  });

  it('rejects non-objects', () => {
    expect(errorOf(null).message).toMatch(/must be an object/);
    expect(errorOf([valid]).message).toMatch(/must be an object, got an array/);
    expect(errorOf('x').field).toBe('(root)');
  });

  it.each([
    ['headline', undefined, /"headline" must be a string, got nothing/],
    ['title', 42, /"title" must be a string, got a number/],
    ['intro', '   ', /"intro" must not be empty/],
    ['content', null, /"content" must be a string, got null/],
    ['image', undefined, /"image" must be a string/],
    ['cta', undefined, /"cta" must be a string/],
    ['imageAlt', undefined, /"imageAlt" must be a string/],
    ['date', '2024-01-01', /"date" must be a positive integer/],
    ['date', 1.5, /"date" must be a positive integer/],
    ['readingTime', 0, /"readingTime" must be a positive integer/],
    ['topic', 'Leadership', /"topic" must be an array/],
    ['topic', [], /"topic" must hold 1 to 3 topics, got 0/],
    ['topic', ['Leadership', 'Coaching', 'Learning', 'Feedback'], /"topic" must hold 1 to 3 topics, got 4/],
    ['topic', ['Leadership', 'Cooking'], /"topic\[1\]" must be one of/],
    ['topic', ['Leadership', 'Leadership'], /"topic" must not repeat/],
    ['url', '/articles/other', /"url" must be "\/articles\/sample-article"/],
    ['subline', 7, /"subline" must be a string/],
    ['surveyHandle', '', /"surveyHandle" must not be empty/],
    ['gallery', {}, /"gallery" must be an array/],
    ['gallery', [{ src: '/a.svg', alt: 'a' }], /"gallery\[0\]\.caption" must be a non-empty string/],
  ])('rejects a bad %s (%j) and names the field', (field, value, message) => {
    const error = errorOf({ ...valid, [field]: value });
    expect(error.message).toMatch(message);
    expect(error.message).toContain('Invalid article "sample-article"');
    expect(error.field.startsWith(field)).toBe(true);
  });

  it('rejects ids that are not URL-safe', () => {
    expect(errorOf({ ...valid, id: 'has space', url: '/articles/has space' }).message).toMatch(/"id" must contain only letters/);
    expect(errorOf({ ...valid, id: 'a/b', url: '/articles/a/b' }).field).toBe('id');
    expect(errorOf({ ...valid, id: undefined }).message).toMatch(/^Invalid article: field "id" must be a string/);
  });
});
