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
    expect(after).toHaveBeenCalledWith({ id: '1', title: 'T', added: true, source: '' });
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
    // One view per copy (each reads payloads as its version defines them), one transport behind them.
    expect(copy.getPageBus(page)).toBe(copy.getPageBus(page));
    expect(copy.getPageBus(page)).not.toBe(getPageBus(page));
  });
});

describe('page bus across contracts versions', () => {
  it("gives listeners the payload as their version reads it: a newer producer's extras dropped, missing optional fields defaulted", () => {
    const bus = createPageBus();
    const seen: unknown[] = [];
    bus.on('watchlist-added', (event) => seen.push(event));
    bus.emit('watchlist-added', { id: '1', title: 'T', added: true, origin: 'screen' } as never);
    bus.emit('watchlist-added', { id: '2', title: 'U', added: false });
    expect(seen).toEqual([
      { id: '1', title: 'T', added: true, source: '' },
      { id: '2', title: 'U', added: false, source: '' },
    ]);
  });

  it('logs and does not deliver a payload missing a required field; the next event still arrives', () => {
    const logger = { error: vi.fn() };
    const bus = createPageBus(logger);
    const handler = vi.fn();
    bus.on('search-submitted', handler);
    bus.emit('search-submitted', { query: 'x' } as never);
    bus.emit('search-submitted', { query: 'y', hitCount: 2 });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledWith({ query: 'y', hitCount: 2 });
    expect(String(logger.error.mock.calls[0]![0])).toMatch(/search-submitted.*hitCount/);
  });

  it('shares one transport with a copy of contracts built before 1.2.0 (it uses the global bus directly)', () => {
    const scope = {};
    const bus = getPageBus(scope);
    // What an older copy finds under the same registry key: a plain PageBus, payloads as sent.
    const older = (scope as Record<symbol, { on: (type: string, handler: (payload: unknown) => void) => void; emit: (type: string, payload: unknown) => void }>)[Symbol.for('khs.contracts.page-bus.v1')]!;
    const olderSeen: unknown[] = [];
    older.on('watchlist-added', (payload: unknown) => olderSeen.push(payload));
    const newerSeen: unknown[] = [];
    bus.on('watchlist-added', (payload) => newerSeen.push(payload));
    older.emit('watchlist-added', { id: '1', title: 'T', added: true });
    bus.emit('watchlist-added', { id: '2', title: 'U', added: true, source: 'mf-x/Y' });
    expect(olderSeen).toEqual([
      { id: '1', title: 'T', added: true },
      { id: '2', title: 'U', added: true, source: 'mf-x/Y' },
    ]);
    expect(newerSeen).toEqual([
      { id: '1', title: 'T', added: true, source: '' },
      { id: '2', title: 'U', added: true, source: 'mf-x/Y' },
    ]);
  });
});
