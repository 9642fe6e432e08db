// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, INSIGHTS_COOKIE_LIFETIME_DAYS, type ConsentState } from 'contracts';
import type { CollectorEvent } from './collectorRequest.js';
import { readInsightsToken } from './insightsToken.js';
import { connectServerHitsInsights } from './serverHitsInsights.js';

function connect(consent: ConsentState, queryID?: string) {
  const bus = createPageBus();
  let current = consent;
  const sent: CollectorEvent[] = [];
  const send = vi.fn(async (_url: string, data: Record<string, unknown>) => {
    sent.push(...(data.events as CollectorEvent[]));
    return true;
  });
  const insights = connectServerHitsInsights({
    endpoint: '/api/insights/events',
    index: 'competence-articles',
    ...(queryID ? { queryID } : {}),
    bus,
    getConsent: () => current,
    send,
  });
  const changeConsent = (next: ConsentState) => {
    current = next;
    bus.emit('consent-changed', next);
  };
  return { insights, sent, changeConsent };
}

afterEach(() => {
  document.cookie = '_ALGOLIA=;expires=Thu, 01 Jan 1970 00:00:00 GMT;path=/';
});

describe('connectServerHitsInsights', () => {
  it('without consent sends nothing and sets no cookie; given consent, the hits on screen are reported once', () => {
    const { insights, sent, changeConsent } = connect({ insights: false, tracking: false });
    insights.viewedHits(['a', 'b']);
    insights.openedHit('a', 1);
    expect(sent).toEqual([]);
    expect(readInsightsToken()).toBeUndefined();

    changeConsent({ insights: true, tracking: false });
    changeConsent({ insights: true, tracking: true });
    const token = readInsightsToken()!;
    expect(token).toMatch(/^anonymous-[0-9a-f-]{36}$/);
    expect(sent).toEqual([{ eventType: 'view', eventName: 'Hits Viewed', index: 'competence-articles', userToken: token, objectIDs: ['a', 'b'] }]);
    expect([...insights.viewed]).toEqual(['a', 'b']);
  });

  it('with consent: a view event for the hits, a click event with the position and the query id, the same token as search-insights would keep', () => {
    document.cookie = `_ALGOLIA=anonymous-11111111-2222-4333-8444-555555555555;path=/`;
    const { insights, sent } = connect({ insights: true, tracking: false }, 'q-1');
    insights.viewedHits(['a', 'b', 'c']);
    insights.viewedHits(['a', 'b', 'c']);
    insights.openedHit('c', 3);
    const userToken = 'anonymous-11111111-2222-4333-8444-555555555555';
    expect(sent).toEqual([
      { eventType: 'view', eventName: 'Hits Viewed', index: 'competence-articles', userToken, objectIDs: ['a', 'b', 'c'], queryID: 'q-1' },
      { eventType: 'click', eventName: 'Article Opened', index: 'competence-articles', userToken, objectIDs: ['c'], positions: [3], queryID: 'q-1' },
    ]);
  });

  it('a new token lives as long as search-insights keeps it; withdrawn consent deletes it; stopped, consent changes do nothing', () => {
    const cookie = vi.spyOn(document, 'cookie', 'set');
    const { insights, changeConsent, sent } = connect({ insights: true, tracking: false });
    insights.viewedHits(['a']);
    const written = String(cookie.mock.calls[0]![0]);
    const expires = Date.parse(/expires=([^;]+)/.exec(written)![1]!);
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(INSIGHTS_COOKIE_LIFETIME_DAYS);
    expect(written).toContain(';path=/');
    cookie.mockRestore();

    changeConsent({ insights: false, tracking: false });
    expect(readInsightsToken()).toBeUndefined();
    insights.stop();
    changeConsent({ insights: true, tracking: false });
    expect(sent).toHaveLength(1);
  });
});
