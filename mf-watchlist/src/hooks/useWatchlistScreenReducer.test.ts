import { describe, expect, it } from 'vitest';
import type { StoredWatchlist, Teaser } from 'contracts';
import { initialWatchlistScreenState as initial, watchlistScreenReducer as reduce } from './useWatchlistScreenReducer.js';

const teaser = (id: string): Teaser => ({
  id,
  overline: 'Topic',
  title: `Title ${id}`,
  href: `/articles/${id}`,
  tags: [{ title: 'Topic' }],
  intro: 'Intro',
  image: { src: '/i.svg', srcSet: '/i.svg 1x', alt: '' },
  cta: 'Read',
  labels: { add: 'Add', remove: 'Remove' },
});
const stored: StoredWatchlist = {
  articles: { a: teaser('a'), b: teaser('b') },
  relatedArticles: [teaser('r')],
  sharingUrl: 'http://site/watchlist/shared/abc',
};

describe('watchlist screen state machine', () => {
  it('starts loading, idle, without confirmation', () => {
    expect(initial).toMatchObject({ status: 'loading', entries: [], download: 'idle', copyConfirmed: false });
  });

  it('loading -> loaded with entries in watchlist order, related articles and the sharing URL', () => {
    const state = reduce(initial, { type: 'loadSucceeded', storedWatchlist: stored });
    expect(state.status).toBe('loaded');
    expect(state.entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(state.related.map((entry) => entry.id)).toEqual(['r']);
    expect(state.sharingUrl).toBe(stored.sharingUrl);
  });

  it('a failed load shows the screen loaded and empty, also after an earlier success', () => {
    expect(reduce(initial, { type: 'loadFailed' })).toMatchObject({ status: 'loaded', entries: [], related: [], sharingUrl: '' });
    const loaded = reduce(initial, { type: 'loadSucceeded', storedWatchlist: stored });
    expect(reduce(loaded, { type: 'loadFailed' })).toMatchObject({ status: 'loaded', entries: [], related: [] });
  });

  it('drops an entry locally and ignores unknown ids', () => {
    const loaded = reduce(initial, { type: 'loadSucceeded', storedWatchlist: stored });
    expect(reduce(loaded, { type: 'articleDropped', id: 'a' }).entries.map((entry) => entry.id)).toEqual(['b']);
    expect(reduce(loaded, { type: 'articleDropped', id: 'zzz' })).toBe(loaded);
  });

  it('download: idle -> downloading -> idle', () => {
    const downloading = reduce(initial, { type: 'downloadStarted' });
    expect(downloading.download).toBe('downloading');
    expect(reduce(downloading, { type: 'downloadStarted' })).toBe(downloading);
    expect(reduce(downloading, { type: 'downloadEnded' }).download).toBe('idle');
  });

  it('copy confirmation shows and ends', () => {
    const shown = reduce(initial, { type: 'copyConfirmed' });
    expect(shown.copyConfirmed).toBe(true);
    expect(reduce(shown, { type: 'copyConfirmationEnded' }).copyConfirmed).toBe(false);
  });

  it('remembers a storage failure until the next successful change', () => {
    const failed = reduce(initial, { type: 'storageFailed' });
    expect(failed.storageFailed).toBe(true);
    expect(reduce(failed, { type: 'storageSucceeded' }).storageFailed).toBe(false);
  });
});
