import type { WidgetEnv } from '../../enhance/env.js';
import type { UndoStack } from '../../enhance/undo.js';
import { nextFrame, perFrame } from './frame.js';

export interface ScrollButtonsOptions {
  env: WidgetEnv;
  undo: UndoStack;
  /** The natively scrolling element (`overflow-x: auto`). */
  viewport: HTMLElement;
  prev: HTMLButtonElement;
  next: HTMLButtonElement;
  /** Pixels per button press, read at each press. */
  step: () => number;
}

/** Slack for sub-pixel scroll positions at the ends (px). */
const END_TOLERANCE_PX = 1;

/**
 * Previous/next buttons for a natively scrolling container (scroll table, horizontal scroller):
 * each press scrolls by `step()` (smoothly unless reduced motion is asked for); a button is
 * disabled at its end. Touch, wheel and keyboard scrolling keep working as without script.
 */
export function attachScrollButtons({ env, undo, viewport, prev, next, step }: ScrollButtonsOptions): { update(): void } {
  const update = () => {
    const max = viewport.scrollWidth - viewport.clientWidth;
    const focused = env.document.activeElement;
    prev.disabled = viewport.scrollLeft <= END_TOLERANCE_PX;
    next.disabled = viewport.scrollLeft >= max - END_TOLERANCE_PX;
    // Keep keyboard focus on a usable control instead of losing it to the page.
    if (focused === next && next.disabled && !prev.disabled) prev.focus();
    if (focused === prev && prev.disabled && !next.disabled) next.focus();
  };
  const scrollBy = (direction: 1 | -1) => {
    viewport.scrollBy({ left: direction * step(), behavior: env.reducedMotion() ? 'auto' : 'smooth' });
  };
  undo.listen(prev, 'click', () => scrollBy(-1));
  undo.listen(next, 'click', () => scrollBy(1));
  const scheduleUpdate = perFrame(env.window, undo, update);
  undo.listen(viewport, 'scroll', scheduleUpdate, { passive: true });
  const ResizeObserverCtor = (env.window as Window & { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
  if (ResizeObserverCtor) {
    const observer = new ResizeObserverCtor(scheduleUpdate);
    observer.observe(viewport);
    undo.defer(() => observer.disconnect());
  } else {
    undo.listen(env.window, 'resize', scheduleUpdate, { passive: true });
  }
  undo.defer(() => {
    prev.disabled = false;
    next.disabled = false;
  });
  nextFrame(env.window, undo, update);
  return { update };
}
