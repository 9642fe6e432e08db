// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { createPageSessionHitsCache, HITS_CACHE_STORAGE_KEY } from './pageSessionHitsCache.js';

const state = (page: number, query = 'lead') => ({ query, page, hitsPerPage: 20, facets: ['topic'] });
const hits = { 0: [{ objectID: 'a' }], 1: [{ objectID: 'b' }] };

describe('createPageSessionHitsCache', () => {
  beforeEach(() => sessionStorage.clear());

  it('answers loaded pages for the same search whatever the page, and nothing for another search', () => {
    const cache = createPageSessionHitsCache();
    cache.write({ state: state(1) as never, hits: hits as never });
    expect(cache.read({ state: state(0) as never })).toBe(hits);
    expect(cache.read({ state: state(0, 'other') as never })).toBeNull();
    expect(sessionStorage.getItem(HITS_CACHE_STORAGE_KEY)).toBeNull();
    cache.dispose();
  });

  it('saves to session storage when the page is left, and a new page reads it back', () => {
    const cache = createPageSessionHitsCache();
    cache.write({ state: state(1) as never, hits: hits as never });
    window.dispatchEvent(new Event('pagehide'));
    cache.dispose();
    const next = createPageSessionHitsCache();
    expect(next.read({ state: state(1) as never })).toEqual(hits);
    next.dispose();
  });

  it('starts empty when the stored value is not JSON', () => {
    sessionStorage.setItem(HITS_CACHE_STORAGE_KEY, '{broken');
    const cache = createPageSessionHitsCache();
    expect(cache.read({ state: state(0) as never })).toBeNull();
    cache.dispose();
  });
});
