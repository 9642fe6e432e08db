// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPageBus, WATCHLIST_STORAGE_KEY, type SiteEvents } from 'contracts';
import { WatchlistButton } from './WatchlistButton.js';
import { WatchlistLink } from './WatchlistLink.js';

const labels = { addLabel: 'Add to watchlist', removeLabel: 'Remove from watchlist', failureLabel: 'Could not save' };

describe('WatchlistButton and WatchlistLink', () => {
  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it('toggles the article, emits updated then added (also on removal), and the badge follows', () => {
    const bus = createPageBus();
    const events: string[] = [];
    bus.on('watchlist-updated', (e: SiteEvents['watchlist-updated']) => events.push(`updated:${e.count}`));
    bus.on('watchlist-added', (e: SiteEvents['watchlist-added']) => events.push(`added:${e.id}:${e.added}:${e.source}`));
    render(
      <>
        <WatchlistLink bus={bus} href="/watchlist" label="Watchlist" />
        <WatchlistButton id="a1" title="Feedback" bus={bus} {...labels} />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Add to watchlist' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('link').textContent).toContain('(0)');

    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Remove from watchlist' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('link').textContent).toContain('(1)');
    expect(JSON.parse(localStorage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: { a1: { title: 'Feedback' } } });

    fireEvent.click(screen.getByRole('button', { name: 'Remove from watchlist' }));
    expect(screen.getByRole('link').textContent).toContain('(0)');
    expect(events).toEqual(['updated:1', 'added:a1:true:mf-watchlist/WatchlistButton', 'updated:0', 'added:a1:false:mf-watchlist/WatchlistButton']);
  });

  it('follows changes made in another tab', () => {
    const bus = createPageBus();
    render(<WatchlistLink bus={bus} href="/watchlist" label="Watchlist" />);
    localStorage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { x: { title: 'X' }, y: { title: 'Y' } } }));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: WATCHLIST_STORAGE_KEY }));
    });
    expect(screen.getByRole('link').textContent).toContain('(2)');
  });

  it('says so when storage refuses the change', () => {
    const bus = createPageBus();
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    const error = console.error;
    console.error = () => {};
    try {
      render(<WatchlistButton id="a1" title="Feedback" bus={bus} {...labels} />);
      fireEvent.click(screen.getByRole('button', { name: 'Add to watchlist' }));
      expect(screen.getByRole('status').textContent).toBe('Could not save');
      expect(screen.getByRole('button').getAttribute('aria-pressed')).toBe('false');
    } finally {
      Storage.prototype.setItem = original;
      console.error = error;
    }
  });
});
