import { describe, expect, it } from 'vitest';
import { resultsVisibility } from './resultsVisibility.js';

const base = { resultsHidden: false, hideResults: false, query: 'lead', nbHits: 5 };

describe('resultsVisibility', () => {
  it('shows results when there are hits and nothing hides them', () => {
    expect(resultsVisibility(base)).toBe('results');
    expect(resultsVisibility({ ...base, query: '' })).toBe('results');
  });

  it('hides results when the flag is set, or with hide-results until a query exists', () => {
    expect(resultsVisibility({ ...base, resultsHidden: true })).toBe('hidden');
    expect(resultsVisibility({ ...base, hideResults: true, query: '  ' })).toBe('hidden');
    expect(resultsVisibility({ ...base, hideResults: true })).toBe('results');
  });

  it('tells "no hits" apart from "not answered yet"', () => {
    expect(resultsVisibility({ ...base, nbHits: 0 })).toBe('no-hits');
    expect(resultsVisibility({ ...base, nbHits: undefined })).toBe('pending');
  });
});
