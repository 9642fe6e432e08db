// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, examplePageConfig, type ConsentState, type IslandContext } from 'contracts';
import { rememberLastSearch } from '../tracking/lastSearch.js';
import mountSearchConversions from './SearchConversions.js';

function mounted(consent: ConsentState, change: (context: IslandContext) => void = () => {}) {
  const context: IslandContext = { bus: createPageBus(), config: examplePageConfig(), getConsent: () => consent };
  change(context);
  const sent = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => new Response(null, { status: 204 }));
  vi.stubGlobal('fetch', sent);
  const element = document.createElement('div');
  const unmount = mountSearchConversions(element, {}, context) as () => void;
  const bodies = () => sent.mock.calls.map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init?.body)) as { events: Array<Record<string, unknown>> } }));
  return { context, element, unmount, bodies };
}

describe('mf-search/SearchConversions (every page, no markup)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('hears a watchlist save of a hit of the last search at once after mounting, and sends that conversion to the collector', async () => {
    rememberLastSearch({ queryId: 's-42', objectIds: ['article-a', 'article-b'], at: Date.now() });
    const { context, element, bodies } = mounted({ insights: true, tracking: false });
    expect(element.childNodes).toHaveLength(0);
    context.bus.emit('watchlist-added', { id: 'article-b', title: 'B', added: true, source: 'mf-watchlist/WatchlistButton' });
    await vi.waitFor(() => expect(bodies()).toHaveLength(1));
    expect(bodies()[0]).toEqual({
      url: context.config.calls.insights,
      body: { events: [expect.objectContaining({ eventType: 'conversion', index: context.config.search.server.indexName, objectIDs: ['article-b'], queryID: 's-42' })] },
    });
  });

  it('stops listening when unmounted, and sends nothing without the insights consent', async () => {
    rememberLastSearch({ queryId: 's-42', objectIds: ['article-a'], at: Date.now() });
    const withoutConsent = mounted({ insights: false, tracking: true });
    withoutConsent.context.bus.emit('watchlist-added', { id: 'article-a', title: 'A', added: true, source: 'mf-watchlist/WatchlistButton' });
    const stopped = mounted({ insights: true, tracking: true });
    stopped.unmount();
    stopped.context.bus.emit('watchlist-added', { id: 'article-a', title: 'A', added: true, source: 'mf-watchlist/WatchlistButton' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(withoutConsent.bodies()).toEqual([]);
    expect(stopped.bodies()).toEqual([]);
  });

  it('a page whose search has no usable index name mounts and records nothing (the page stays intact)', async () => {
    rememberLastSearch({ queryId: 's-42', objectIds: ['article-a'], at: Date.now() });
    const { context, bodies } = mounted({ insights: true, tracking: true }, (changed) => void (changed.config.search.server.indexName = ' '));
    context.bus.emit('watchlist-added', { id: 'article-a', title: 'A', added: true, source: 'mf-watchlist/WatchlistButton' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bodies()).toEqual([]);
  });
});
