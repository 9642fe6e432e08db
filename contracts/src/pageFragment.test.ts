import { describe, expect, it } from 'vitest';
import { isPageFragment, pageFragmentIslandMarker, PAGE_FRAGMENT_ISLAND_MARKER_PATTERN, type PageFragment } from './pageFragment.js';

const fragment: PageFragment = {
  title: 'Contact',
  pageClass: 'page-contact',
  html: `<div class="island" data-island="mf-widgets/FileField" data-props="{}">${pageFragmentIslandMarker(0)}</div>`,
  islands: [{ name: 'mf-widgets/FileField', props: {}, serverProps: { id: 'f' }, placeholderHtml: '<input type="file"/>' }],
};

describe('page fragments', () => {
  it('recognises a fragment, and refuses anything the shell could not compose', () => {
    expect(isPageFragment(fragment)).toBe(true);
    expect(isPageFragment(JSON.parse(JSON.stringify(fragment)))).toBe(true);
    for (const broken of [null, 'html', {}, { ...fragment, html: 1 }, { ...fragment, title: undefined }, { ...fragment, islands: {} }, { ...fragment, islands: [{ name: 'x', props: {} }] }, { ...fragment, islands: [{ name: 'x', placeholderHtml: '', props: null }] }]) {
      expect(isPageFragment(broken), JSON.stringify(broken)).toBe(false);
    }
  });

  it("takes the content's own styles, but none that could end the style element", () => {
    expect(isPageFragment({ ...fragment, styles: '.page-contact .x { color: red; }' })).toBe(true);
    expect(isPageFragment({ ...fragment, styles: 'a{}</style><script>alert(1)</script>' })).toBe(false);
    expect(isPageFragment({ ...fragment, styles: 12 })).toBe(false);
  });

  it('finds every island marker with its index', () => {
    const html = `${pageFragmentIslandMarker(0)} and ${pageFragmentIslandMarker(12)}`;
    expect([...html.matchAll(PAGE_FRAGMENT_ISLAND_MARKER_PATTERN)].map((match) => Number(match[1]))).toEqual([0, 12]);
  });
});
