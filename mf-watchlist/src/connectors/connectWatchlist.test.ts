import { describe, expect, it, vi } from 'vitest';
import { createPageBus, WATCHLIST_STORAGE_KEY, type LocalWatchlist } from 'contracts';
import { connectWatchlist, isSaved } from './connectWatchlist.js';

/** A Storage in memory; `full` makes every write throw as a full browser storage does. */
function memoryStorage(): Storage & { full: boolean } {
  const items = new Map<string, string>();
  return {
    full: false,
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key: string) => items.get(key) ?? null,
    key: (index: number) => [...items.keys()][index] ?? null,
    removeItem: (key: string) => void items.delete(key),
    setItem(key: string, value: string) {
      if (this.full) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
  };
}

/** A window stand-in whose `storage` listeners the test can call. */
function fakeView() {
  const listeners = new Set<(event: StorageEvent) => void>();
  return {
    listeners,
    addEventListener: (_type: string, listener: (event: StorageEvent) => void) => void listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: StorageEvent) => void) => void listeners.delete(listener),
    fire: (key: string | null) => listeners.forEach((listener) => listener({ key } as StorageEvent)),
  };
}

describe('connectWatchlist', () => {
  it('reads the stored list, toggles it and tells the page: updated, then added (also on removal)', () => {
    const storage = memoryStorage();
    const bus = createPageBus();
    const events: unknown[] = [];
    bus.on('watchlist-updated', (event) => events.push(['updated', event.count]));
    bus.on('watchlist-added', (event) => events.push(['added', event.id, event.added, event.source]));
    const connection = connectWatchlist(bus, { view: null, storage: () => storage });
    expect(connection.read()).toEqual({ articles: {} });
    expect(connection.toggle({ id: 'a', title: 'A' }, { source: 'test/Island' })).toEqual({ ok: true, added: true, watchlist: { articles: { a: { title: 'A' } } } });
    expect(JSON.parse(storage.getItem(WATCHLIST_STORAGE_KEY)!)).toEqual({ articles: { a: { title: 'A' } } });
    expect(connection.toggle({ id: 'a', title: 'A' }, { source: 'test/Island' })).toMatchObject({ ok: true, added: false });
    expect(events).toEqual([['updated', 1], ['added', 'a', true, 'test/Island'], ['updated', 0], ['added', 'a', false, 'test/Island']]);
  });

  it('emits nothing and logs when storage refuses; the stored list stays', () => {
    const storage = memoryStorage();
    const bus = createPageBus();
    const emitted = vi.fn();
    bus.on('watchlist-updated', emitted);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.full = true;
    expect(connectWatchlist(bus, { view: null, storage: () => storage }).toggle({ id: 'a', title: 'A' }, {})).toEqual({ ok: false });
    expect(emitted).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });

  it('follows this page (bus) and other tabs (storage events of its key, or a cleared storage) until unsubscribed', () => {
    const storage = memoryStorage();
    const view = fakeView();
    const bus = createPageBus();
    const seen: LocalWatchlist[] = [];
    const unsubscribe = connectWatchlist(bus, { view, storage: () => storage }).subscribe((watchlist) => seen.push(watchlist));
    bus.emit('watchlist-updated', { watchlist: { articles: { x: { title: 'X' } } }, count: 1 });
    storage.setItem(WATCHLIST_STORAGE_KEY, JSON.stringify({ articles: { y: { title: 'Y' } } }));
    view.fire('another-key');
    view.fire(WATCHLIST_STORAGE_KEY);
    view.fire(null);
    expect(seen).toEqual([{ articles: { x: { title: 'X' } } }, { articles: { y: { title: 'Y' } } }, { articles: { y: { title: 'Y' } } }]);
    unsubscribe();
    expect(view.listeners.size).toBe(0);
    bus.emit('watchlist-updated', { watchlist: { articles: {} }, count: 0 });
    expect(seen).toHaveLength(3);
  });

  it('isSaved looks at the list\'s own entries only', () => {
    expect(isSaved({ articles: { a: { title: 'A' } } }, 'a')).toBe(true);
    expect(isSaved({ articles: {} }, 'toString')).toBe(false);
  });
});
