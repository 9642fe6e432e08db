import { describe, expect, it } from 'vitest';
import type { LocalWatchlist } from 'contracts';
import { droppedEntryIds } from './useWatchlistScreen.js';

const watchlistOf = (...ids: string[]): LocalWatchlist => ({
  articles: Object.fromEntries(ids.map((id) => [id, { title: `Title ${id}` }])) as LocalWatchlist['articles'],
});

describe('droppedEntryIds', () => {
  it('names the entries the new watchlist no longer holds, in screen order', () => {
    expect(droppedEntryIds([{ id: 'a' }, { id: 'b' }, { id: 'c' }], watchlistOf('b'))).toEqual(['a', 'c']);
  });

  it('names none when every entry is still saved (an article was added elsewhere)', () => {
    expect(droppedEntryIds([{ id: 'a' }], watchlistOf('a', 'z'))).toEqual([]);
  });

  it('does not take inherited names for saved articles', () => {
    expect(droppedEntryIds([{ id: 'toString' }], watchlistOf())).toEqual(['toString']);
  });
});
