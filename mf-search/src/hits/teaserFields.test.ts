import { describe, expect, it } from 'vitest';
import type { ArticleHit } from './articleHit.js';
import { teaserHeadline, teaserIntro, teaserMeta } from './teaserFields.js';

const none = (value: string) => ({ value, matchLevel: 'none' as const, matchedWords: [] });
const full = (value: string) => ({ value, matchLevel: 'full' as const, matchedWords: ['x'] });

function hit(overrides: Partial<ArticleHit>): ArticleHit {
  return { objectID: '1', __position: 1, title: 'Title', headline: 'Headline', intro: 'Intro', ...overrides } as ArticleHit;
}

const text = (segments: { text: string; highlighted: boolean }[]) =>
  segments.map((s) => (s.highlighted ? `[${s.text}]` : s.text)).join('');

describe('teaser fields', () => {
  it('uses the highlighted headline, or the title when there is no headline', () => {
    expect(text(teaserHeadline(hit({ _highlightResult: { headline: full('__ais-highlight__Head__/ais-highlight__line') } })))).toBe('[Head]line');
    expect(text(teaserHeadline(hit({ headline: '', _highlightResult: { title: full('__ais-highlight__Tit__/ais-highlight__le') } })))).toBe('[Tit]le');
    expect(text(teaserHeadline(hit({ headline: '' })))).toBe('Title');
  });

  it('picks the intro if it matched, else the matched content snippet, else the intro', () => {
    const introMatched = hit({ _highlightResult: { intro: full('__ais-highlight__In__/ais-highlight__tro') }, _snippetResult: { content: full('…__ais-highlight__c__/ais-highlight__…') } });
    expect(text(teaserIntro(introMatched))).toBe('[In]tro');
    const contentMatched = hit({ _highlightResult: { intro: none('Intro') }, _snippetResult: { content: full('… the __ais-highlight__coach__/ais-highlight__ said …') } });
    expect(text(teaserIntro(contentMatched))).toBe('… the [coach] said …');
    const nothingMatched = hit({ _highlightResult: { intro: none('Intro') }, _snippetResult: { content: none('content') } });
    expect(text(teaserIntro(nothingMatched))).toBe('Intro');
  });

  it('joins date and reading time with a comma, or shows whichever exists', () => {
    const date = Date.UTC(2026, 10, 21) / 1000;
    expect(teaserMeta(date, 6)).toBe('21 November 2026, 6 min read');
    expect(teaserMeta(date, undefined)).toBe('21 November 2026');
    expect(teaserMeta(undefined, 4)).toBe('4 min read');
    expect(teaserMeta(undefined, undefined)).toBe('');
  });
});
