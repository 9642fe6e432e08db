import { describe, expect, it } from 'vitest';
import { highlightContainment, parseHighlight } from './parseHighlight.js';

describe('parseHighlight', () => {
  it('splits InstantSearch highlight placeholders into marked segments', () => {
    expect(parseHighlight('Giving __ais-highlight__feed__/ais-highlight__back that lands')).toEqual([
      { text: 'Giving ', highlighted: false },
      { text: 'feed', highlighted: true },
      { text: 'back that lands', highlighted: false },
    ]);
  });

  it('keeps any other markup as literal text', () => {
    expect(parseHighlight('<script>alert(1)</script> __ais-highlight__<b>x</b>__/ais-highlight__')).toEqual([
      { text: '<script>alert(1)</script> ', highlighted: false },
      { text: '<b>x</b>', highlighted: true },
    ]);
  });

  it('gives nothing for an empty value', () => {
    expect(parseHighlight('')).toEqual([]);
  });
});

describe('highlightContainment', () => {
  it('marks every case-insensitive occurrence of the query', () => {
    expect(highlightContainment('Lead the leaders', 'LEAD')).toEqual([
      { text: 'Lead', highlighted: true },
      { text: ' the ', highlighted: false },
      { text: 'lead', highlighted: true },
      { text: 'ers', highlighted: false },
    ]);
  });

  it('marks nothing for an empty or absent query', () => {
    expect(highlightContainment('Feedback', ' ')).toEqual([{ text: 'Feedback', highlighted: false }]);
    expect(highlightContainment('Feedback', 'zzz')).toEqual([{ text: 'Feedback', highlighted: false }]);
  });
});
