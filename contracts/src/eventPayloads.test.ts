import { describe, expect, it } from 'vitest';
import { readSiteEvent, SiteEventPayloadError } from './eventPayloads.js';

describe('readSiteEvent', () => {
  it('keeps a payload of this version as it is (defaults only where a field is missing)', () => {
    expect(readSiteEvent('watchlist-added', { id: '1', title: 'T', added: true, source: 'mf-watchlist/WatchlistButton' })).toEqual({
      id: '1',
      title: 'T',
      added: true,
      source: 'mf-watchlist/WatchlistButton',
    });
    expect(readSiteEvent('search-submitted', { query: 'lead', hitCount: 0 })).toEqual({ query: 'lead', hitCount: 0 });
  });

  it("drops a newer producer's extra fields", () => {
    const newer = { id: '1', title: 'T', added: false, source: 'x', origin: 'screen', at: 17 };
    expect(readSiteEvent('watchlist-added', newer)).toEqual({ id: '1', title: 'T', added: false, source: 'x' });
    expect(readSiteEvent('consent-changed', { insights: true, tracking: false, marketing: true })).toEqual({ insights: true, tracking: false });
  });

  it("fills an older producer's missing optional fields with their defaults", () => {
    // A remote built against contracts 1.1.0 sends no `source`.
    expect(readSiteEvent('watchlist-added', { id: '1', title: 'T', added: true })).toEqual({ id: '1', title: 'T', added: true, source: '' });
  });

  it('replaces an optional field of the wrong type by its default', () => {
    expect(readSiteEvent('watchlist-added', { id: '1', title: 'T', added: true, source: 42 }).source).toBe('');
  });

  it('reads the watchlist of watchlist-updated like stored data (unknown entry fields dropped)', () => {
    expect(
      readSiteEvent('watchlist-updated', { watchlist: { articles: { a: { title: 'A', savedAt: 3 } }, owner: 'x' }, count: 1 }),
    ).toEqual({ watchlist: { articles: { a: { title: 'A' } } }, count: 1 });
  });

  it.each([
    ['watchlist-added', { title: 'T', added: true }, 'id'],
    ['watchlist-added', { id: '1', title: 'T', added: 'yes' }, 'added'],
    ['watchlist-updated', { watchlist: null, count: 1 }, 'watchlist'],
    ['watchlist-updated', { watchlist: { articles: {} }, count: -1 }, 'count'],
    ['search-submitted', null, 'query'],
    ['consent-panel-requested', {}, 'source'],
  ] as const)('refuses a %s payload without a valid required field (%j)', (type, payload, field) => {
    let thrown: unknown;
    try {
      readSiteEvent(type, payload);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SiteEventPayloadError);
    expect((thrown as SiteEventPayloadError).field).toBe(field);
  });

  it('passes an event this version does not know through unchanged', () => {
    const payload = { anything: 1 };
    expect(readSiteEvent('newer-event' as never, payload)).toBe(payload);
  });
});
