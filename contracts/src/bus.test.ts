import { describe, expect, it, vi } from 'vitest';
import { createPageBus, getPageBus } from './bus.js';

describe('page bus', () => {
  it('delivers typed events to every listener, in order', () => {
    const bus = createPageBus();
    const seen: string[] = [];
    bus.on('search-submitted', (e) => seen.push(`a:${e.query}:${e.hitCount}`));
    bus.on('search-submitted', (e) => seen.push(`b:${e.query}`));
    bus.emit('search-submitted', { query: 'lead', hitCount: 3 });
    expect(seen).toEqual(['a:lead:3', 'b:lead']);
  });

  it('isolates a throwing listener: it is logged and the others still run', () => {
    const logger = { error: vi.fn() };
    const bus = createPageBus(logger);
    const after = vi.fn();
    bus.on('watchlist-added', () => {
      throw new Error('broken listener');
    });
    bus.on('watchlist-added', after);
    bus.emit('watchlist-added', { id: '1', title: 'T', added: true });
    expect(after).toHaveBeenCalledWith({ id: '1', title: 'T', added: true });
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(String(logger.error.mock.calls[0]![0])).toContain('watchlist-added');
  });

  it('unsubscribes with off and with the function on returns', () => {
    const bus = createPageBus();
    const a = vi.fn();
    const b = vi.fn();
    const offA = bus.on('consent-changed', a);
    bus.on('consent-changed', b);
    offA();
    bus.off('consent-changed', b);
    bus.emit('consent-changed', { insights: true, tracking: true });
    expect(a).not.toHaveBeenCalled();
    expect(b).not.toHaveBeenCalled();
  });

  it('gives every copy of contracts on a page the same bus', async () => {
    const page = {};
    // A second, separately loaded copy of the module stands in for another bundle's contracts.
    vi.resetModules();
    const copy = await import('./bus.js');
    expect(copy.getPageBus).not.toBe(getPageBus);
    const received = vi.fn();
    copy.getPageBus(page).on('search-submitted', received);
    getPageBus(page).emit('search-submitted', { query: 'q', hitCount: 1 });
    expect(received).toHaveBeenCalledTimes(1);
    expect(copy.getPageBus(page)).toBe(getPageBus(page));
  });
});
