// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { TABLE_SCROLL_STEP_PX } from 'contracts';
import { MarkupError } from '../../enhance/markup.js';
import { render, testEnv } from '../../testing/testEnv.js';
import { enhanceScrollTable } from './enhanceScrollTable.js';

const markup = `<section data-widget="scroll-table">
  <div data-scroll-controls hidden><button type="button" data-scroll-prev>Prev</button><button type="button" data-scroll-next>Next</button></div>
  <div data-scroll-viewport tabindex="0"><table><tr><td>wide</td></tr></table></div>
</section>`;
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));

/** Gives the jsdom viewport a scroll geometry and a scrollBy that moves it (no layout in jsdom). */
function fakeScrolling(viewport: HTMLElement, clientWidth: number, scrollWidth: number) {
  Object.defineProperty(viewport, 'clientWidth', { value: clientWidth, configurable: true });
  Object.defineProperty(viewport, 'scrollWidth', { value: scrollWidth, configurable: true });
  const scrollBy = vi.fn(({ left }: ScrollToOptions) => {
    viewport.scrollLeft = Math.min(Math.max(0, viewport.scrollLeft + (left ?? 0)), scrollWidth - clientWidth);
    viewport.dispatchEvent(new Event('scroll'));
  });
  viewport.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
  return scrollBy;
}

describe('scroll table', () => {
  it('scrolls by the table step and disables each button at its end', async () => {
    const root = render(markup);
    const viewport = root.querySelector<HTMLElement>('[data-scroll-viewport]')!;
    const scrollBy = fakeScrolling(viewport, 300, 500);
    enhanceScrollTable(root, testEnv());
    const prev = root.querySelector<HTMLButtonElement>('[data-scroll-prev]')!;
    const next = root.querySelector<HTMLButtonElement>('[data-scroll-next]')!;
    expect(root.querySelector<HTMLElement>('[data-scroll-controls]')!.hidden).toBe(false);
    await nextFrame();
    expect(prev.disabled).toBe(true);
    expect(next.disabled).toBe(false);
    next.click();
    expect(scrollBy).toHaveBeenLastCalledWith({ left: TABLE_SCROLL_STEP_PX, behavior: 'smooth' });
    await nextFrame();
    expect(prev.disabled).toBe(false);
    next.click();
    await nextFrame();
    expect(viewport.scrollLeft).toBe(200);
    expect(next.disabled).toBe(true);
    prev.click();
    expect(scrollBy).toHaveBeenLastCalledWith({ left: -TABLE_SCROLL_STEP_PX, behavior: 'smooth' });
  });

  it('scrolls without animation when reduced motion is asked for', () => {
    const root = render(markup);
    const scrollBy = fakeScrolling(root.querySelector<HTMLElement>('[data-scroll-viewport]')!, 300, 900);
    const env = testEnv();
    env.setReducedMotion(true);
    enhanceScrollTable(root, env);
    root.querySelector<HTMLButtonElement>('[data-scroll-next]')!.click();
    expect(scrollBy).toHaveBeenLastCalledWith({ left: TABLE_SCROLL_STEP_PX, behavior: 'auto' });
  });

  it('needs its table and buttons', () => {
    const root = render(markup.replace('<table><tr><td>wide</td></tr></table>', ''));
    expect(() => enhanceScrollTable(root, testEnv())).toThrow(MarkupError);
    expect(root.querySelector<HTMLElement>('[data-scroll-controls]')!.hidden).toBe(true);
  });
});
