// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IslandLoadError } from './islandLoadError.js';
import { loadTimeoutPlugin } from './loadTimeoutPlugin.js';

type FetchHook = (url: string, init: RequestInit) => Promise<Response>;

describe('loadTimeoutPlugin', () => {
  afterEach(() => vi.useRealTimers());

  it('aborts the manifest request at the deadline (the fetch is cancelled) and fails with KHS-ISLAND-003', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const hanging = vi.fn((_url: string | URL | Request, init?: RequestInit) => {
      signals.push(init!.signal!);
      return new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    });
    const plugin = loadTimeoutPlugin({ timeoutMs: 500, fetch: hanging as typeof fetch });
    const loading = (plugin.fetch as FetchHook)('http://a.test/mf-manifest.json', {});
    const outcome = loading.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(499);
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await outcome) as IslandLoadError;
    expect(signals[0]!.aborted).toBe(true);
    expect(error).toBeInstanceOf(IslandLoadError);
    expect(error).toMatchObject({ code: 'KHS-ISLAND-003', stage: 'manifest', transient: false });
    expect(error.message).toMatch(/^KHS-ISLAND-003 \[manifest\] no answer from http:\/\/a\.test\/mf-manifest\.json within 500 ms/);
  });

  it('passes a timely answer through and clears its timer', async () => {
    vi.useFakeTimers();
    const plugin = loadTimeoutPlugin({ timeoutMs: 500, fetch: (async () => new Response('{"ok":1}')) as typeof fetch });
    const response = await (plugin.fetch as FetchHook)('http://a.test/m.json', {});
    expect(await response.json()).toEqual({ ok: 1 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    [404, false],
    [500, true],
    [503, true],
    [429, true],
    [408, true],
  ])('refuses an HTTP %i answer (KHS-ISLAND-001, transient: %s) instead of parsing it as a manifest', async (status, transient) => {
    const cancel = vi.fn(async () => {});
    const fake = (async () => ({ ok: false, status, body: { cancel } }) as unknown as Response) as typeof fetch;
    const error = (await (loadTimeoutPlugin({ timeoutMs: 500, fetch: fake }).fetch as FetchHook)('http://a.test/m.json', {}).catch((e: unknown) => e)) as IslandLoadError;
    expect(error).toMatchObject({ code: 'KHS-ISLAND-001', stage: 'manifest', status, transient });
    expect(cancel).toHaveBeenCalled();
  });

  it('marks a network failure as transient', async () => {
    const fake = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const error = (await (loadTimeoutPlugin({ timeoutMs: 500, fetch: fake }).fetch as FetchHook)('http://a.test/m.json', {}).catch((e: unknown) => e)) as IslandLoadError;
    expect(error).toMatchObject({ code: 'KHS-ISLAND-001', transient: true });
  });

  it("gives the remote entry script the deadline and keeps the runtime's attributes", () => {
    const plugin = loadTimeoutPlugin({ timeoutMs: 700 });
    const created = (plugin.createScript as (args: { url: string; attrs?: Record<string, unknown> }) => { script: HTMLScriptElement; timeout: number })({
      url: 'http://a.test/remoteEntry.js',
      attrs: { fetchpriority: 'high', async: true },
    });
    expect(created.timeout).toBe(700);
    expect(created.script.src).toBe('http://a.test/remoteEntry.js');
    expect(created.script.getAttribute('fetchpriority')).toBe('high');
    expect(created.script.async).toBe(true);
  });
});
