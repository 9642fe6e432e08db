// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { WATCHLIST_STORAGE_KEY } from 'contracts';
import { readWatchlist, toggleWatchlistArticle, watchlistCount } from './watchlistStorage.js';

describe('watchlist storage', () => {
  beforeEach(() => localStorage.clear());

  it('reads an empty watchlist when nothing is stored', () => {
    expect(readWatchlist()).toEqual({ articles: {} });
  });

  it.each([
    ['not JSON', '{oops'],
    ['an array', '[1,2]'],
    ['a string', '"hello"'],
    ['articles not an object', '{"articles":"x"}'],
  ])('treats %s as empty and repairs the stored value', (_label, raw) => {
    localStorage.setItem(WATCHLIST_STORAGE_KEY, raw);
    expect(readWatchlist()).toEqual({ articles: {} });
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: {} });
  });

  it('keeps valid entries and drops foreign ones', () => {
    localStorage.setItem(
      WATCHLIST_STORAGE_KEY,
      JSON.stringify({ articles: { a: { title: 'A' }, b: { name: 'B' }, c: 3 }, extra: true }),
    );
    expect(readWatchlist()).toEqual({ articles: { a: { title: 'A' } } });
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: { a: { title: 'A' } } });
  });

  it('adds then removes an article', () => {
    const added = toggleWatchlistArticle('a', 'Alpha');
    expect(added).toEqual({ ok: true, added: true, watchlist: { articles: { a: { title: 'Alpha' } } } });
    const removed = toggleWatchlistArticle('a', 'Alpha');
    expect(removed).toEqual({ ok: true, added: false, watchlist: { articles: {} } });
    expect(watchlistCount(readWatchlist())).toBe(0);
  });

  it('reports a full storage as a failure and loses nothing', () => {
    toggleWatchlistArticle('a', 'Alpha');
    const full: Storage = {
      length: 1,
      clear: () => {},
      key: () => null,
      removeItem: () => {},
      getItem: (key) => localStorage.getItem(key),
      setItem: () => {
        throw new DOMException('quota exceeded', 'QuotaExceededError');
      },
    };
    const result = toggleWatchlistArticle('b', 'Beta', full);
    expect(result.ok).toBe(false);
    expect(readWatchlist()).toEqual({ articles: { a: { title: 'Alpha' } } });
  });

  it('reports unavailable storage as a failure', () => {
    expect(toggleWatchlistArticle('a', 'Alpha', null)).toMatchObject({ ok: false });
  });
});
