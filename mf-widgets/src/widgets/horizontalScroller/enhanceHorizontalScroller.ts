import type { WidgetEnv } from '../../enhance/env.js';
import { requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { attachScrollButtons } from '../shared/scrollButtons.js';

/**
 * Horizontal scroll container (`[data-widget="h-scroll"]`): same markup as the scroll table
 * around any row of items. Each button press scrolls by one visible width, so no item is
 * skipped; buttons are disabled at the ends.
 */
export function enhanceHorizontalScroller(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const viewport = requireChild(element, '[data-scroll-viewport]', 'scroll viewport');
    const controls = requireChild(element, '[data-scroll-controls]', 'scroll controls');
    const prev = requireChild<HTMLButtonElement>(controls, 'button[data-scroll-prev]', 'previous button');
    const next = requireChild<HTMLButtonElement>(controls, 'button[data-scroll-next]', 'next button');
    undo.removeAttribute(controls, 'hidden');
    undo.addClass(element, 'is-enhanced');
    attachScrollButtons({ env, undo, viewport, prev, next, step: () => viewport.clientWidth });
  });
}
