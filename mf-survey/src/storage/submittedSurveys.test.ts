// @vitest-environment jsdom
import { SUBMITTED_SURVEYS_STORAGE_KEY } from 'contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { isSurveySubmitted, markSurveySubmitted, readSubmittedSurveyHandles } from './submittedSurveys.js';

const stored = () => localStorage.getItem(SUBMITTED_SURVEYS_STORAGE_KEY);

describe('submitted surveys in local storage', () => {
  beforeEach(() => localStorage.clear());

  it('is empty when nothing is stored, without writing anything', () => {
    expect(readSubmittedSurveyHandles()).toEqual([]);
    expect(stored()).toBeNull();
  });

  it('adds a handle once and keeps earlier ones', () => {
    expect(markSurveySubmitted('a')).toBe(true);
    expect(markSurveySubmitted('b')).toBe(true);
    expect(markSurveySubmitted('a')).toBe(true);
    expect(JSON.parse(stored()!)).toEqual(['a', 'b']);
    expect(isSurveySubmitted('b')).toBe(true);
    expect(isSurveySubmitted('c')).toBe(false);
  });

  it.each([
    ['text that is not JSON', '{nope', []],
    ['an object', '{"a":1}', []],
    ['a number', '42', []],
    ['non-strings and empty strings', '["a", 1, null, "", {"x":1}, "b"]', ['a', 'b']],
    ['duplicates', '["a","a","b"]', ['a', 'b']],
  ])('repairs %s in place', (_case, raw, expected) => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, raw);
    expect(readSubmittedSurveyHandles()).toEqual(expected);
    expect(JSON.parse(stored()!)).toEqual(expected);
  });

  it('keeps a valid list untouched', () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, '["x", "y"]');
    expect(readSubmittedSurveyHandles()).toEqual(['x', 'y']);
    expect(stored()).toBe('["x", "y"]');
  });

  it('adds to a repaired list', () => {
    localStorage.setItem(SUBMITTED_SURVEYS_STORAGE_KEY, '[1, "a"]');
    markSurveySubmitted('b');
    expect(JSON.parse(stored()!)).toEqual(['a', 'b']);
  });

  it('reports, without throwing, when storage refuses the write or is missing', () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(markSurveySubmitted('a', refusing)).toBe(false);
    expect(markSurveySubmitted('a', null)).toBe(false);
    expect(readSubmittedSurveyHandles(null)).toEqual([]);
  });
});
