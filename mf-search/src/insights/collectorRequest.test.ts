import { describe, expect, it, vi } from 'vitest';
import { INSIGHTS_EVENT_CHUNK } from 'contracts';
import { createCollectorRequest, toCollectorEvents } from './collectorRequest.js';

const ids = (count: number) => Array.from({ length: count }, (_, i) => `id-${i}`);

describe('toCollectorEvents', () => {
  it(`splits object ids (and positions) into chunks of ${INSIGHTS_EVENT_CHUNK}`, () => {
    const events = toCollectorEvents([
      { eventType: 'click', eventName: 'Hits Clicked', index: 'i', userToken: 'anonymous-1', objectIDs: ids(45), positions: ids(45).map((_, i) => i + 1), algoliaSource: ['instantsearch'] },
    ]);
    expect(events.map((event) => event.objectIDs.length)).toEqual([20, 20, 5]);
    expect(events[2]!.positions).toEqual([41, 42, 43, 44, 45]);
    expect(events[0]).not.toHaveProperty('algoliaSource');
  });

  it("drops InstantSearch's usage telemetry and events without object ids", () => {
    expect(
      toCollectorEvents([
        { eventType: 'instantsearch', eventName: '__start__', userToken: 'a' },
        { eventType: 'view', eventName: 'x', index: 'i', userToken: 'a', objectIDs: [] },
      ]),
    ).toEqual([]);
  });
});

describe('createCollectorRequest', () => {
  it('posts the events as JSON to the collector, ignoring the Algolia URL', async () => {
    const fetchImpl = vi.fn(async () => new Response('{}', { status: 200 }));
    const send = createCollectorRequest('/api/insights/events', fetchImpl);
    const sent = await send('https://insights.algolia.io/1/events?X-Algolia-Application-Id=x', {
      events: [{ eventType: 'view', eventName: 'Hits Viewed', index: 'i', userToken: 42, objectIDs: ['a'] }],
    });
    expect(sent).toBe(true);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/insights/events');
    expect(init.keepalive).toBe(true);
    expect(JSON.parse(String(init.body))).toEqual({ events: [{ eventType: 'view', eventName: 'Hits Viewed', index: 'i', userToken: '42', objectIDs: ['a'] }] });
  });

  it('logs and reports failure when the collector refuses or is unreachable', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const event = { eventType: 'view', eventName: 'v', index: 'i', userToken: 't', objectIDs: ['a'] };
    expect(await createCollectorRequest('/c', async () => new Response('{}', { status: 400 }))('', { events: [event] })).toBe(false);
    expect(await createCollectorRequest('/c', async () => Promise.reject(new TypeError('offline')))('', { events: [event] })).toBe(false);
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });
});
