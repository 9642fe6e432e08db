// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, type ConsentState } from 'contracts';
import type { InsightsClient } from 'search-insights';
import { useConsent } from '../hooks/useConsent.js';
import { loadInsightsClient } from './loadInsightsClient.js';
import { useInsightsClient } from './useInsightsClient.js';

function Probe({ load, onClient }: { load: (endpoint: string) => Promise<InsightsClient | null>; onClient: (client: InsightsClient | null) => void }) {
  const bus = Probe.bus;
  const consent = useConsent({ bus, getConsent: () => Probe.initialConsent });
  onClient(useInsightsClient('/api/insights/events', consent.insights, load));
  return null;
}
Probe.bus = createPageBus();
Probe.initialConsent = { insights: false, tracking: false } as ConsentState;

describe('useInsightsClient', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('loads the insights script only after consent and drops the client (and token cookie) when it is withdrawn', async () => {
    const fakeClient = vi.fn() as unknown as InsightsClient;
    const load = vi.fn(async () => fakeClient);
    const seen: Array<InsightsClient | null> = [];
    Probe.bus = createPageBus();
    render(<Probe load={load} onClient={(client) => seen.push(client)} />);
    await act(async () => {});
    expect(load).not.toHaveBeenCalled();
    expect(seen.at(-1)).toBeNull();

    await act(async () => Probe.bus.emit('consent-changed', { insights: true, tracking: false }));
    expect(load).toHaveBeenCalledWith('/api/insights/events');
    expect(seen.at(-1)).toBe(fakeClient);

    document.cookie = '_ALGOLIA=anonymous-abc;path=/';
    await act(async () => Probe.bus.emit('consent-changed', { insights: false, tracking: false }));
    expect(seen.at(-1)).toBeNull();
    expect(document.cookie).not.toContain('_ALGOLIA=anonymous-abc');
  });
});

describe('loadInsightsClient', () => {
  it('logs when the insights script fails to load and answers null', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = await loadInsightsClient('/failing-endpoint', () => Promise.reject(new Error('ChunkLoadError')));
    expect(client).toBeNull();
    expect(error.mock.calls.some((call) => String(call[0]).includes('insights script failed to load'))).toBe(true);
  });

  it('gives a client that sends to the collector with an anonymous token cookie', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 200 }));
    const client = (await loadInsightsClient('http://localhost/api/insights/events'))!;
    await client('viewedObjectIDs', { eventName: 'Hits Viewed', index: 'competence-articles', objectIDs: ['a', 'b'] });
    expect(document.cookie).toMatch(/_ALGOLIA=anonymous-/);
    const [url, init] = fetchSpy.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('http://localhost/api/insights/events');
    const body = JSON.parse(String(init.body)) as { events: Array<{ userToken: string; objectIDs: string[] }> };
    expect(body.events[0]!.objectIDs).toEqual(['a', 'b']);
    expect(body.events[0]!.userToken).toMatch(/^anonymous-/);
  });
});
