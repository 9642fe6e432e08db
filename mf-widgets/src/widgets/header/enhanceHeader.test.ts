// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { HEADER_SCROLLED_THRESHOLD_PX } from 'contracts';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceHeader } from './enhanceHeader.js';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

describe('header scrolled state', () => {
  afterEach(() => scrollTo(0));

  it('is scrolled only beyond the threshold, and loses the state above it', () => {
    const header = render('<header class="site-header" data-site-header></header>');
    const cleanup = enhanceHeader(header, testEnv());
    scrollTo(HEADER_SCROLLED_THRESHOLD_PX);
    expect(header.classList.contains('is-scrolled')).toBe(false);
    scrollTo(HEADER_SCROLLED_THRESHOLD_PX + 1);
    expect(header.classList.contains('is-scrolled')).toBe(true);
    scrollTo(5);
    expect(header.classList.contains('is-scrolled')).toBe(false);
    cleanup();
  });

  it('starts scrolled on a page loaded mid-way, and cleanup stops following the scroll', async () => {
    scrollTo(400);
    const header = render('<header data-site-header></header>');
    const cleanup = enhanceHeader(header, testEnv());
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(header.classList.contains('is-scrolled')).toBe(true);
    cleanup();
    expect(header.classList.contains('is-scrolled')).toBe(false);
    scrollTo(500);
    expect(header.classList.contains('is-scrolled')).toBe(false);
  });
});
