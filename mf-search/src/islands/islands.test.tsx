// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPageBus, examplePageConfig, type IslandContext, type PageConfig } from 'contracts';
import mountHeaderSearch from './HeaderSearch.js';
import mountSearchList from './SearchList.js';

function contextWith(change: (config: PageConfig) => void): IslandContext {
  const config = examplePageConfig();
  change(config);
  return { bus: createPageBus(), config, getConsent: () => ({ insights: false, tracking: false }) };
}

function islandWithFallback(): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = '<form role="search" action="/search"><input name="q"></form>';
  document.body.append(element);
  return element;
}

describe('island configuration errors', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it.each([
    ['missing-search-client', (config: PageConfig) => void (config.search.server = undefined as never)],
    ['missing-index-name', (config: PageConfig) => void (config.search.server.indexName = '')],
    ['missing-facet-attribute', (config: PageConfig) => void (config.search.facets = [{ label: 'Topic' } as never])],
    ['invalid-facet-operator', (config: PageConfig) => void (config.search.facets = [{ attribute: 'topic', label: 'T', operator: 'not' } as never])],
    ['invalid-show-more-limit', (config: PageConfig) => void (config.search.facets = [{ attribute: 'topic', label: 'T', limit: 20, showMoreLimit: 5 } as never])],
  ])('%s: the list logs a typed error, keeps its fallback and leaves the page alone', (code, change) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const neighbour = document.createElement('p');
    neighbour.textContent = 'Rest of the page';
    document.body.append(neighbour);
    const element = islandWithFallback();
    const fallback = element.innerHTML;
    expect(() => mountSearchList(element, { hideResults: false }, contextWith(change))).toThrow(expect.objectContaining({ code }));
    expect(element.innerHTML).toBe(fallback);
    expect(neighbour.textContent).toBe('Rest of the page');
    expect(error.mock.calls.some((call) => String(call[0]).includes(`configuration error (${code})`))).toBe(true);
  });

  it('conflicting chip attribute lists are a configuration error too', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const element = islandWithFallback();
    const chips = { includedAttributes: ['topic'], excludedAttributes: ['query'] };
    expect(() => mountSearchList(element, { chips }, contextWith(() => {}))).toThrow(expect.objectContaining({ code: 'conflicting-attribute-lists' }));
  });

  it('the header search keeps its GET form when the search client is missing', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const element = islandWithFallback();
    const fallback = element.innerHTML;
    expect(() => mountHeaderSearch(element, {}, contextWith((config) => void (config.search.server = undefined as never)))).toThrow();
    expect(element.innerHTML).toBe(fallback);
  });
});
