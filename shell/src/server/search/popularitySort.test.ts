import { POPULARITY_SORT_BY } from 'contracts';
import { describe, expect, it } from 'vitest';
import { readShellConfig, ShellConfigError } from '../config.js';
import { buildPageConfig } from '../pageConfig.js';
import { browserSearchEndpoint } from './searchEndpoint.js';

/** The sort every page gives the search islands (browser and server render) for `env`. */
function siteSortBy(env: NodeJS.ProcessEnv): string {
  const config = readShellConfig(env);
  return buildPageConfig(config, browserSearchEndpoint(config)).search.sortBy;
}

describe('the site\'s search sort (SEARCH_POPULARITY)', () => {
  it('is relevance alone by default and with off', () => {
    expect(siteSortBy({})).toBe('');
    expect(siteSortBy({ SEARCH_POPULARITY: 'off' })).toBe('');
  });

  it('puts popularity after text match when on', () => {
    expect(siteSortBy({ SEARCH_POPULARITY: 'on' })).toBe('_text_match:desc,popularity:desc');
    expect(POPULARITY_SORT_BY).toBe('_text_match:desc,popularity:desc');
  });

  it('refuses another value, naming the variable', () => {
    expect(() => readShellConfig({ SEARCH_POPULARITY: 'sometimes' })).toThrow(ShellConfigError);
    try {
      readShellConfig({ SEARCH_POPULARITY: 'sometimes' });
    } catch (error) {
      expect((error as ShellConfigError).problems).toContain('SEARCH_POPULARITY must be on or off, got "sometimes"');
    }
  });
});
