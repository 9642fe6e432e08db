// Issue 35: a remote unreachable while the shell started comes back by itself (its manifest polled
// from the start, canary or not), and a build a page pins is loaded on demand, never left broken.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeOrigin, federationFor } from './versionsOrigin.testing.js';

const POLL_MS = 1000;

/** The fake origin behind a switch: `down` makes every fetch fail as a refused connection does. */
function switchableOrigin(published: string[], live: string) {
  const remote = fakeOrigin(published, live);
  const state = { down: true };
  const fetchSwitch = ((input: string | URL | Request, init?: RequestInit) =>
    state.down ? Promise.reject(new TypeError('fetch failed (ECONNREFUSED)')) : remote.fetchFake(input, init)) as typeof fetch;
  return { remote, state, fetchSwitch };
}

describe('ServerFederation: a remote that was down at the start comes back by itself', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('polls a remote whose first fetch failed, loads and warms its build up within one poll interval of answering, with no page asking', async () => {
    const { remote, state, fetchSwitch } = switchableOrigin(['1.0.0+live'], '1.0.0+live');
    let clock = 0;
    const federation = federationFor(remote, { fetch: fetchSwitch, now: () => clock });
    const errors: string[] = [];
    federation.startRevalidation(POLL_MS, (name) => errors.push(name));
    await federation.preload((name) => errors.push(name));
    expect(federation.pollStates()[0]!.lastPoll).toMatchObject({ ok: false });

    clock += POLL_MS;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(federation.pollStates()[0]!.lastPoll).toMatchObject({ at: POLL_MS, ok: false });

    state.down = false;
    clock += POLL_MS;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    // Reachable from this poll, not from a page; the build is registered and its modules warm.
    expect(federation.pollStates()[0]).toMatchObject({ lastPoll: { at: 2 * POLL_MS, ok: true }, buildVersion: '1.0.0+live', generation: 0 });
    await vi.waitFor(() => expect(remote.runtime.loads).toEqual(['mf_hello/Hello']));
    expect(remote.runtime.registrations.map((registration) => registration.name)).toEqual(['mf_hello']);
    expect(errors).toEqual(['mf-hello', 'mf-hello']);
    await federation.close();
  });

  it('brings the live build back while every page pins a version (a canary), and the pinned builds load after it', async () => {
    const { remote, state, fetchSwitch } = switchableOrigin(['1.0.0+live', '1.0.0+canary'], '1.0.0+live');
    const federation = federationFor(remote, { fetch: fetchSwitch, retryMs: 60_000 });
    federation.startRevalidation(POLL_MS);
    await federation.preload();
    // Pages of both sides while the origin is away: they fail, and no container starts.
    await expect(federation.load('mf-hello', 'Hello', '1.0.0+canary')).rejects.toMatchObject({ stage: 'manifest' });
    await expect(federation.load('mf-hello', 'Hello', '1.0.0+live')).rejects.toMatchObject({ stage: 'manifest' });
    expect(remote.runtime.loads).toEqual([]);

    state.down = false;
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await vi.waitFor(() => expect(remote.runtime.loads).toEqual(['mf_hello/Hello']));
    // The next pages of both sides render (the stable side is the live build itself).
    const canary = await federation.load('mf-hello', 'Hello', '1.0.0+canary');
    expect((await canary.render({}, {} as never)).html).toBe('<p>1.0.0+canary</p>');
    const stable = await federation.load('mf-hello', 'Hello', '1.0.0+live');
    expect((await stable.render({}, {} as never)).html).toBe('<p>1.0.0+live</p>');
    await federation.close();
  });
});

describe('ServerFederation: a pinned build is loaded on demand, never left broken', () => {
  it('starts the live build before a pinned one (its chunks resolve through it)', async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+next'], '1.0.0+live');
    const federation = federationFor(remote);
    await federation.load('mf-hello', 'Hello', '1.0.0+next');
    expect(remote.runtime.loads).toEqual(['mf_hello/Hello', expect.stringMatching(/^mf_hello__v[0-9a-f]{12}\/Hello$/)]);
    await federation.close();
  });

  it('loads a pinned build afresh after its container failed to start (registered again, which drops the runtime caches)', async () => {
    const remote = fakeOrigin(['1.0.0+live', '1.0.0+next'], '1.0.0+live');
    const federation = federationFor(remote);
    await federation.preload();
    const loadRemote = remote.runtime.loadRemote.bind(remote.runtime);
    let brokenOnce = true;
    remote.runtime.loadRemote = async <T,>(id: string): Promise<T | null> => {
      if (id.includes('__v') && brokenOnce) {
        brokenOnce = false;
        remote.runtime.loads.push(id);
        return null;
      }
      return loadRemote<T>(id);
    };
    await expect(federation.load('mf-hello', 'Hello', '1.0.0+next')).rejects.toMatchObject({ code: 'KHS-ISLAND-006' });
    expect(federation.pinnedVersions('mf-hello')).toEqual([]);
    const module = await federation.load('mf-hello', 'Hello', '1.0.0+next');
    expect((await module.render({}, {} as never)).html).toBe('<p>1.0.0+next</p>');
    const pinnedRegistrations = remote.runtime.registrations.filter((registration) => registration.name.includes('__v'));
    expect(pinnedRegistrations.map((registration) => registration.force)).toEqual([false, true]);
    await federation.close();
  });
});
