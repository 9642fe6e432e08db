// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, type ConsentState } from 'contracts';
import { ARTICLE_SAVED_EVENT, startConversionTracking } from './conversionTracking.js';
import { CONVERSION_WINDOW_MS, rememberLastSearch, rememberMoreHits } from './lastSearch.js';

const T0 = 1_763_000_000_000;

function track(consent: ConsentState, now: number) {
  const bus = createPageBus();
  const send = vi.fn(async (_url: string, _data: Record<string, unknown>) => true);
  const stop = startConversionTracking({ endpoint: '/api/insights/events', index: 'articles', bus, getConsent: () => consent, send, now: () => now });
  const events = () => send.mock.calls.flatMap(([, data]) => data.events as Array<Record<string, unknown>>);
  return { bus, send, stop, events };
}

describe('conversion tracking (a watchlist save after a search)', () => {
  afterEach(() => sessionStorage.clear());

  it("a save of one of the last search's hits within 30 minutes is that search's conversion, on any page", () => {
    rememberLastSearch({ queryId: 's-1', objectIds: ['a', 'b'], at: T0 });
    const { bus, events } = track({ insights: true, tracking: false }, T0 + CONVERSION_WINDOW_MS);
    bus.emit('watchlist-added', { id: 'b', title: 'B', added: true, source: 'mf-watchlist/WatchlistButton' });
    expect(events()).toEqual([{ eventType: 'conversion', eventName: ARTICLE_SAVED_EVENT, index: 'articles', userToken: expect.stringMatching(/^anonymous-/), objectIDs: ['b'], queryID: 's-1' }]);
  });

  it('hits loaded later by the same search count too', () => {
    rememberLastSearch({ queryId: 's-1', objectIds: ['a'], at: T0 });
    rememberMoreHits('s-1', ['c']);
    rememberMoreHits('s-other', ['d']);
    const { bus, events } = track({ insights: true, tracking: false }, T0 + 1000);
    bus.emit('watchlist-added', { id: 'c', title: 'C', added: true });
    bus.emit('watchlist-added', { id: 'd', title: 'D', added: true });
    expect(events().map((event) => event.objectIDs)).toEqual([['c']]);
  });

  it.each([
    ['after 30 minutes', { insights: true, tracking: true }, 'a', true, CONVERSION_WINDOW_MS + 1],
    ['an article the search did not show', { insights: true, tracking: true }, 'zz', true, 1000],
    ['a removal', { insights: true, tracking: true }, 'a', false, 1000],
    ['without insights consent (tracking alone)', { insights: false, tracking: true }, 'a', true, 1000],
  ])('nothing is sent for %s', (_label, consent, id, added, after) => {
    rememberLastSearch({ queryId: 's-1', objectIds: ['a'], at: T0 });
    const { bus, send } = track(consent, T0 + after);
    bus.emit('watchlist-added', { id, title: 'X', added });
    expect(send).not.toHaveBeenCalled();
  });

  it('nothing without a remembered search, and nothing after stop', () => {
    const { bus, send, stop } = track({ insights: true, tracking: true }, T0);
    bus.emit('watchlist-added', { id: 'a', title: 'A', added: true });
    rememberLastSearch({ queryId: 's-1', objectIds: ['a'], at: T0 });
    stop();
    bus.emit('watchlist-added', { id: 'a', title: 'A', added: true });
    expect(send).not.toHaveBeenCalled();
  });
});
