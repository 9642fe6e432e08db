// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceExternalLink } from './enhanceExternalLink.js';

describe('links that open a new tab', () => {
  it('get noopener, keeping their other rel tokens; cleanup restores rel', () => {
    const link = render('<a href="https://example.org" target="_blank" rel="external">x</a>');
    const cleanup = enhanceExternalLink(link, testEnv());
    expect(link.getAttribute('rel')).toBe('external noopener');
    cleanup();
    expect(link.getAttribute('rel')).toBe('external');
  });

  it('leave a rel that already has noopener alone', () => {
    const link = render('<a href="/" target="_blank" rel="noopener noreferrer">x</a>');
    enhanceExternalLink(link, testEnv());
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });
});
