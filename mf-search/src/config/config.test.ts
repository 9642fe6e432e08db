import { describe, expect, it } from 'vitest';
import { DEFAULT_SEARCH_INDEX_NAME, FACET_LIMIT, FACET_SHOW_MORE_LIMIT, examplePageConfig } from 'contracts';
import { validateChipOptions } from './chipOptions.js';
import { createSearchClient } from './createSearchClient.js';
import { validateFacetOptions } from './facetOptions.js';
import { SearchConfigurationError } from './SearchConfigurationError.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof SearchConfigurationError ? error.code : `untyped: ${String(error)}`;
  }
  return undefined;
}

describe('validateFacetOptions', () => {
  it('applies the defaults: operator or, limit 10, show-more 20', () => {
    expect(validateFacetOptions({ attribute: 'topic', label: 'Topic' })).toEqual({
      attribute: 'topic',
      label: 'Topic',
      operator: 'or',
      limit: FACET_LIMIT,
      showMoreLimit: FACET_SHOW_MORE_LIMIT,
    });
  });

  it('rejects a missing attribute, an operator other than and/or and a show-more limit not above the limit', () => {
    expect(codeOf(() => validateFacetOptions({ label: 'Topic' }))).toBe('missing-facet-attribute');
    expect(codeOf(() => validateFacetOptions(null))).toBe('missing-facet-attribute');
    expect(codeOf(() => validateFacetOptions({ attribute: 'topic', operator: 'xor' as never }))).toBe('invalid-facet-operator');
    expect(codeOf(() => validateFacetOptions({ attribute: 'topic', limit: 10, showMoreLimit: 10 }))).toBe('invalid-show-more-limit');
    expect(codeOf(() => validateFacetOptions({ attribute: 'topic', operator: 'and', limit: 5, showMoreLimit: 6 }))).toBeUndefined();
  });
});

describe('validateChipOptions', () => {
  it('rejects included and excluded attributes together', () => {
    expect(codeOf(() => validateChipOptions({ includedAttributes: ['topic'], excludedAttributes: ['query'] }))).toBe('conflicting-attribute-lists');
    expect(validateChipOptions({ includedAttributes: ['topic'] })).toEqual({ includedAttributes: ['topic'] });
  });
});

describe('createSearchClient', () => {
  const search = examplePageConfig().search;

  it('needs a search client (server) and an index name', () => {
    expect(codeOf(() => createSearchClient(undefined))).toBe('missing-search-client');
    expect(codeOf(() => createSearchClient({ ...search, server: undefined as never }))).toBe('missing-search-client');
    expect(codeOf(() => createSearchClient({ ...search, server: { ...search.server, indexName: '' } }))).toBe('missing-index-name');
  });

  it('defaults the index to the competence-articles index and hits per page to the limit', () => {
    const setup = createSearchClient({ ...search, limit: 7, server: { ...search.server, indexName: undefined as never } });
    expect(setup.indexName).toBe(DEFAULT_SEARCH_INDEX_NAME);
    expect(setup.hitsPerPage).toBe(7);
  });
});
