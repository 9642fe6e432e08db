import { describe, expect, it, vi } from 'vitest';
import { IslandLoadError } from './islandLoadError.js';
import { loadTimeoutPlugin } from './loadTimeoutPlugin.js';
import { backoffDelay, retryPlugin } from './retryPlugin.js';
import { fakeContainers, fakeIsland, manifestOf, runtimeWith } from './testingRuntime.testing.js';

/** A plugin hook called with only the fields the plugin reads. */
type LooseHook = (args: object) => unknown;

const half = () => 0.5;

describe('backoffDelay', () => {
  it('doubles per attempt, with ±25 % jitter', () => {
    expect([1, 2, 3].map((attempt) => backoffDelay(attempt, 300, half))).toEqual([300, 600, 1200]);
    expect(backoffDelay(1, 300, () => 0)).toBe(225);
    expect(backoffDelay(1, 300, () => 0.999999)).toBe(375);
  });
});

/** A fake fetch answering `answers` in turn (a status, or 'network' for a failed request), then the manifest. */
function origin(name: string, answers: Array<number | 'network'>) {
  const calls: string[] = [];
  const fetchFake = vi.fn(async (url: string | URL | Request) => {
    calls.push(String(url));
    const answer = answers.shift();
    if (answer === 'network') throw new TypeError('Failed to fetch');
    if (answer !== undefined) return new Response('<h1>error</h1>', { status: answer });
    return new Response(manifestOf(name));
  }) as unknown as typeof fetch;
  return { calls, fetchFake };
}

describe('retryPlugin with the federation runtime', () => {
  it('retries a manifest after transient failures (network, 503) with back-off, through the deadline plugin, and the load succeeds', async () => {
    const remote = origin('mf-a', ['network', 503]);
    const waits: number[] = [];
    const containers = fakeContainers();
    const { instance, entry } = runtimeWith('mf-a', [
      loadTimeoutPlugin({ timeoutMs: 1000, fetch: remote.fetchFake }),
      retryPlugin({ retries: 2, backoffMs: 100, random: half, sleep: async (ms) => void waits.push(ms) }),
      containers,
    ]);
    expect(await instance.loadRemote('mf-a/Island')).toBe(fakeIsland);
    expect(remote.calls).toEqual([entry, entry, entry]);
    expect(waits).toEqual([100, 200]);
    expect(containers.loaded).toEqual(['mf_a']);
  });

  it('gives up after its retries', async () => {
    const remote = origin('mf-b', [503, 503, 503, 503]);
    const { instance } = runtimeWith('mf-b', [
      loadTimeoutPlugin({ timeoutMs: 1000, fetch: remote.fetchFake }),
      retryPlugin({ retries: 2, sleep: async () => {} }),
      fakeContainers(),
    ]);
    await expect(instance.loadRemote('mf-b/Island')).rejects.toThrow(/HTTP 503/);
    expect(remote.calls).toHaveLength(3);
  });

  it('does not retry a 404 or a deadline', async () => {
    const missing = origin('mf-c', [404]);
    const { instance } = runtimeWith('mf-c', [
      loadTimeoutPlugin({ timeoutMs: 1000, fetch: missing.fetchFake }),
      retryPlugin({ sleep: async () => {} }),
      fakeContainers(),
    ]);
    await expect(instance.loadRemote('mf-c/Island')).rejects.toThrow(/KHS-ISLAND-001 \[manifest\] HTTP 404/);
    expect(missing.calls).toHaveLength(1);

    const sleep = vi.fn(async () => {});
    const plugin = retryPlugin({ sleep });
    const deadline = new IslandLoadError('KHS-ISLAND-003', 'manifest', 'no answer');
    const recovered = await (plugin.errorLoadRemote as LooseHook)({ id: 'http://x.test/m.json', error: deadline, lifecycle: 'afterResolve', origin: {} });
    expect(recovered).toBeUndefined();
    expect(sleep).not.toHaveBeenCalled();
  });
});

describe('retryPlugin: remote entry scripts', () => {
  it('loads a failed entry again after back-off, as a new load (the failed one is dropped from the runtime\'s loading table)', async () => {
    const waits: number[] = [];
    const plugin = retryPlugin({ retries: 2, backoffMs: 50, random: half, sleep: async (ms) => void waits.push(ms) });
    const container = { init: () => {}, get: () => {} };
    const globalLoading: Record<string, unknown> = { key: Promise.reject(new Error('failed')).catch(() => {}) };
    const getRemoteEntry = vi
      .fn()
      .mockImplementationOnce(async () => {
        expect(globalLoading.key).toBeUndefined();
        throw new Error('ScriptNetworkError');
      })
      .mockImplementationOnce(async () => container);
    const recovered = await (plugin.loadEntryError as LooseHook)({ getRemoteEntry, origin: {}, remoteInfo: { name: 'mf_a' }, globalLoading, uniqueKey: 'key' });
    expect(recovered).toBe(container);
    expect(getRemoteEntry).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([50, 100]);
  });

  it('gives up after its retries (the runtime then reports the original failure)', async () => {
    const plugin = retryPlugin({ retries: 1, sleep: async () => {} });
    const getRemoteEntry = vi.fn(async () => {
      throw new Error('ScriptNetworkError');
    });
    expect(await (plugin.loadEntryError as LooseHook)({ getRemoteEntry, origin: {}, remoteInfo: {}, globalLoading: {}, uniqueKey: 'k' })).toBeUndefined();
    expect(getRemoteEntry).toHaveBeenCalledTimes(1);
  });
});
