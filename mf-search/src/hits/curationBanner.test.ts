import { describe, expect, it } from 'vitest';
import { curationBannerOf } from './curationBanner.js';

const kpi = { title: 'Measuring what matters', text: 'Start with our guide.', url: '/articles/kpis-that-matter' };

describe("a curation rule's banner", () => {
  it('is read from the answer the rule sent it with, next to other metadata (the recorded search)', () => {
    expect(curationBannerOf({ userData: [{ ...kpi, khsRecordedSearch: { q: 'kpi' } }] })).toEqual(kpi);
    expect(curationBannerOf({ userData: [{ khsRecordedSearch: {} }, { ...kpi, title: '  Measuring what matters ' }] })).toEqual(kpi);
  });

  it('is none without userData, or when incomplete', () => {
    expect(curationBannerOf(undefined)).toBeUndefined();
    expect(curationBannerOf({})).toBeUndefined();
    expect(curationBannerOf({ userData: [{ title: 'T', text: 'x' }] })).toBeUndefined();
    expect(curationBannerOf({ userData: [{ ...kpi, title: ' ' }] })).toBeUndefined();
    expect(curationBannerOf({ userData: [{ ...kpi, title: 7 }] })).toBeUndefined();
  });

  it('links only to a path of this site or an http(s) address', () => {
    expect(curationBannerOf({ userData: [{ ...kpi, url: 'https://example.org/guide' }] })?.url).toBe('https://example.org/guide');
    for (const url of ['javascript:alert(1)', '//evil.example/x', 'data:text/html,x', 'articles/relative']) {
      expect(curationBannerOf({ userData: [{ ...kpi, url }] }), url).toBeUndefined();
    }
  });
});
