// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceHorizontalScroller } from './enhanceHorizontalScroller.js';

describe('horizontal scroller', () => {
  it('scrolls by one visible width per press', () => {
    const root = render(`<section data-widget="h-scroll">
      <div data-scroll-controls hidden><button type="button" data-scroll-prev>Prev</button><button type="button" data-scroll-next>Next</button></div>
      <div data-scroll-viewport><ul><li>a</li></ul></div></section>`);
    const viewport = root.querySelector<HTMLElement>('[data-scroll-viewport]')!;
    Object.defineProperty(viewport, 'clientWidth', { value: 320, configurable: true });
    const scrollBy = vi.fn();
    viewport.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
    const cleanup = enhanceHorizontalScroller(root, testEnv());
    root.querySelector<HTMLButtonElement>('[data-scroll-next]')!.click();
    expect(scrollBy).toHaveBeenLastCalledWith({ left: 320, behavior: 'smooth' });
    root.querySelector<HTMLButtonElement>('[data-scroll-prev]')!.click();
    expect(scrollBy).toHaveBeenLastCalledWith({ left: -320, behavior: 'smooth' });
    cleanup();
    root.querySelector<HTMLButtonElement>('[data-scroll-next]')!.click();
    expect(scrollBy).toHaveBeenCalledTimes(2);
  });
});
