import { describe, expect, it } from 'vitest';
import { SUGGESTIONS_SHOWN } from 'contracts';
import { filterSuggestions, type Suggestion } from './suggestions.js';

const make = (...titles: string[]): Suggestion[] => titles.map((title, index) => ({ objectID: String(index), title }));

describe('filterSuggestions', () => {
  it('keeps titles containing the query case-insensitively', () => {
    const shown = filterSuggestions(make('Leading remote teams', 'Feedback that lands', 'Self-LEADership'), 'lead');
    expect(shown.map((s) => s.title)).toEqual(['Leading remote teams', 'Self-LEADership']);
  });

  it('filters nothing when no title contains the query (typo matches of the server stay)', () => {
    const all = make('Leadership basics', 'Leading remote teams');
    expect(filterSuggestions(all, 'leadrship')).toEqual(all);
  });

  it(`shows at most ${SUGGESTIONS_SHOWN}`, () => {
    const many = make(...Array.from({ length: SUGGESTIONS_SHOWN + 3 }, (_, i) => `Team ${i}`));
    expect(filterSuggestions(many, 'team')).toHaveLength(SUGGESTIONS_SHOWN);
  });
});
