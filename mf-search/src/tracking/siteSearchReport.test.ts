import { describe, expect, it, vi } from 'vitest';
import { createPageBus, DEFAULT_CALL_URLS, type ConsentState, type PageConfig } from 'contracts';
import { reportSiteSearch } from './siteSearchReport.js';

function setup(consent: ConsentState, calls: Partial<PageConfig['calls']> = { siteSearch: '/edge/searches' }) {
  const bus = createPageBus();
  const submitted: unknown[] = [];
  bus.on('search-submitted', (event) => submitted.push(event));
  const sent: Array<{ url: string; body: unknown }> = [];
  const send = vi.fn((url: string, body: string) => void sent.push({ url, body: JSON.parse(body) }));
  const context = { bus, config: { calls } as PageConfig, getConsent: () => consent };
  return { context, submitted, sent, send };
}

describe('reportSiteSearch', () => {
  it('with tracking consent: the bus event for any tracker and the record to the service, page path only, applied filters only', () => {
    const { context, submitted, sent, send } = setup({ insights: false, tracking: true });
    reportSiteSearch(context, { query: ' Lead ', hitCount: 4, filters: { topic: ['Sales'], format: [] } }, send, '/search');
    expect(submitted).toEqual([{ query: 'Lead', hitCount: 4 }]);
    expect(sent).toEqual([{ url: '/edge/searches', body: { query: 'Lead', hitCount: 4, filters: { topic: ['Sales'] }, page: '/search', queryID: expect.stringMatching(/^s-[0-9a-f-]{36}$/) } }]);
  });

  it('without tracking consent (insights consent alone is not enough): the bus event only, nothing sent', () => {
    const { context, submitted, send } = setup({ insights: true, tracking: false });
    reportSiteSearch(context, { query: 'lead', hitCount: 0 }, send, '/search');
    expect(submitted).toHaveLength(1);
    expect(send).not.toHaveBeenCalled();
  });

  it('an empty query is no search: nothing emitted, nothing sent', () => {
    const { context, submitted, send } = setup({ insights: true, tracking: true });
    reportSiteSearch(context, { query: '   ', hitCount: 3 }, send, '/search');
    expect(submitted).toEqual([]);
    expect(send).not.toHaveBeenCalled();
  });

  it("a shell's config from before contracts 1.5.0 (no siteSearch call) sends to the default path", () => {
    const { context, sent, send } = setup({ insights: false, tracking: true }, {});
    reportSiteSearch(context, { query: 'kpi', hitCount: 2 }, send, '/articles/kpi');
    expect(sent[0]!.url).toBe(DEFAULT_CALL_URLS.siteSearch);
  });
});
