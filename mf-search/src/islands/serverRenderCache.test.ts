import { describe, expect, it } from 'vitest';
import { createServerRenderCache } from './serverRenderCache.js';

describe('createServerRenderCache', () => {
  it('shares identical renders within the TTL, renders again after it, and never reuses a failure', async () => {
    let now = 0;
    let runs = 0;
    const cache = createServerRenderCache({ ttlMs: 1000, maxEntries: 10, maxInFlight: 4, now: () => now });
    const run = async () => ({ html: `<p>${++runs}</p>` });
    const [a, b] = await Promise.all([cache.render('/search?q=a', run), cache.render('/search?q=a', run)]);
    expect(a).toBe(b);
    expect(runs).toBe(1);
    now = 1001;
    expect((await cache.render('/search?q=a', run)).html).toBe('<p>2</p>');
    await expect(cache.render('/search?q=b', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.render('/search?q=b', run)).html).toBe('<p>3</p>');
  });

  it('refuses a render past the in-flight limit at once, and accepts again when one finished', async () => {
    const cache = createServerRenderCache({ ttlMs: 1000, maxEntries: 10, maxInFlight: 2, now: () => 0 });
    let release = () => {};
    const slow = () => new Promise<{ html: string }>((resolve) => (release = () => resolve({ html: 'x' })));
    const first = cache.render('/1', slow);
    const second = cache.render('/2', () => new Promise(() => {}));
    await expect(cache.render('/3', async () => ({ html: '3' }))).rejects.toThrow(/left to the browser/);
    release();
    await first;
    void second;
    expect((await cache.render('/3', async () => ({ html: '3' }))).html).toBe('3');
  });

  it('keeps at most maxEntries', async () => {
    let runs = 0;
    const cache = createServerRenderCache({ ttlMs: 1000, maxEntries: 2, maxInFlight: 4, now: () => 0 });
    const run = async () => ({ html: String(++runs) });
    for (const key of ['a', 'b', 'c']) await cache.render(key, run);
    await cache.render('a', run);
    expect(runs).toBe(4);
  });
});
