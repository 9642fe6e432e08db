// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, WATCHLIST_STORAGE_KEY, type SiteEvents } from 'contracts';
import { DEFAULT_IMPORT_TEXTS, SharedWatchlistImport } from './SharedWatchlistImport.js';

const shared = { a1: { title: 'Feedback' }, b2: { title: 'Negotiation' }, c3: { title: 'Coaching' } };
const stored = () => JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY) ?? '{"articles":{}}') as { articles: Record<string, unknown> };

describe('SharedWatchlistImport', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('adds only the missing articles and announces each on the bus', () => {
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { b2: { title: 'Negotiation' }, mine: { title: 'Mine' } } }));
    const bus = createPageBus();
    const events: string[] = [];
    bus.on('watchlist-updated', (event: SiteEvents['watchlist-updated']) => events.push(`updated:${event.count}`));
    bus.on('watchlist-added', (event: SiteEvents['watchlist-added']) => events.push(`added:${event.id}:${event.added}`));
    render(<SharedWatchlistImport articles={shared} bus={bus} watchlistHref="/watchlist" />);

    fireEvent.click(screen.getByRole('button', { name: 'Add these 3 articles to my watchlist' }));

    expect(Object.keys(stored().articles).sort()).toEqual(['a1', 'b2', 'c3', 'mine']);
    expect(events).toEqual(['updated:3', 'added:a1:true', 'updated:4', 'added:c3:true']);
    expect(screen.getByRole('status').textContent).toBe('Added 2 articles to your watchlist.');
    expect(screen.getByRole('link', { name: DEFAULT_IMPORT_TEXTS.openWatchlist }).getAttribute('href')).toBe('/watchlist');
  });

  it('says when everything was already saved and changes nothing', () => {
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: shared }));
    const bus = createPageBus();
    const emitted = vi.fn();
    bus.on('watchlist-added', emitted);
    render(<SharedWatchlistImport articles={shared} bus={bus} watchlistHref="/watchlist" />);
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('status').textContent).toBe(DEFAULT_IMPORT_TEXTS.alreadySaved);
    expect(emitted).not.toHaveBeenCalled();
  });

  it('reports a full storage and loses nothing already saved', () => {
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { mine: { title: 'Mine' } } }));
    const logger = { error: vi.fn() };
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      render(<SharedWatchlistImport articles={shared} bus={createPageBus()} watchlistHref="/watchlist" logger={logger} />);
      fireEvent.click(screen.getByRole('button'));
    } finally {
      setItem.mockRestore();
    }
    expect(screen.getByRole('status').textContent).toBe(DEFAULT_IMPORT_TEXTS.failed);
    expect(stored()).toEqual({ articles: { mine: { title: 'Mine' } } });
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe('SharedWatchlistImport island', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('reads its props like untrusted data: malformed entries are not imported', async () => {
    const { default: mount } = await import('../../islands/SharedWatchlistImport.js');
    const { act } = await import('react');
    const { examplePageConfig } = await import('contracts');
    const element = document.createElement('div');
    document.body.append(element);
    // The mount settles once React committed, after act flushed it: awaited outside act.
    let mounting: ReturnType<typeof mount> | undefined;
    await act(async () => {
      mounting = mount(
        element,
        { articles: { a1: { title: 'Feedback' }, bad: 5, worse: { name: 'x' } } } as never,
        { bus: createPageBus(), config: examplePageConfig(), getConsent: () => ({ insights: false, tracking: false }) },
      );
    });
    const unmount = (await mounting) as () => void;
    fireEvent.click(screen.getByRole('button', { name: 'Add this article to my watchlist' }));
    expect(stored()).toEqual({ articles: { a1: { title: 'Feedback' } } });
    expect(screen.getByRole('status').textContent).toBe('Added 1 article to your watchlist.');
    await act(async () => unmount());
    element.remove();
  });
});
