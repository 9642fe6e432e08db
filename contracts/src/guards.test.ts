import { describe, expect, it } from 'vitest';
import { readLocalWatchlist, readSubmittedSurveys } from './guards.js';
import { parseIslandName } from './island.js';

describe('readLocalWatchlist', () => {
  it('accepts a valid watchlist unchanged', () => {
    expect(readLocalWatchlist({ articles: { a: { title: 'A' } } })).toEqual({
      watchlist: { articles: { a: { title: 'A' } } },
      repaired: false,
    });
  });
  it('treats missing data as empty without repair', () => {
    expect(readLocalWatchlist(null)).toEqual({ watchlist: { articles: {} }, repaired: false });
  });
  it.each([[42], ['x'], [[]], [{ articles: [] }], [{ list: {} }]])('repairs %j to empty', (value) => {
    expect(readLocalWatchlist(value)).toEqual({ watchlist: { articles: {} }, repaired: true });
  });
});

describe('readSubmittedSurveys', () => {
  it('keeps unique string handles and flags garbage', () => {
    expect(readSubmittedSurveys(['a', 'b'])).toEqual({ handles: ['a', 'b'], repaired: false });
    expect(readSubmittedSurveys(['a', 3, 'a', null])).toEqual({ handles: ['a'], repaired: true });
    expect(readSubmittedSurveys({})).toEqual({ handles: [], repaired: true });
  });
});

describe('parseIslandName', () => {
  it('splits remote and module', () => {
    expect(parseIslandName('mf-watchlist/WatchlistButton')).toEqual({ remote: 'mf-watchlist', module: 'WatchlistButton' });
    expect(parseIslandName('nonsense')).toBeNull();
    expect(parseIslandName('a/b/c')).toBeNull();
  });
});
