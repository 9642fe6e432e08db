import { TABLE_SCROLL_STEP_PX } from 'contracts';
import type { WidgetEnv } from '../../enhance/env.js';
import { requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { attachScrollButtons } from '../shared/scrollButtons.js';

/**
 * Scrollable table (`[data-widget="scroll-table"]`): a natively scrolling
 * `[data-scroll-viewport]` holding a `<table>`, and hidden `[data-scroll-controls]` with
 * `[data-scroll-prev]` / `[data-scroll-next]` buttons. Enhanced, the buttons show and scroll by
 * TABLE_SCROLL_STEP_PX; each is disabled at its end.
 */
export function enhanceScrollTable(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const viewport = requireChild(element, '[data-scroll-viewport]', 'scroll viewport');
    requireChild(viewport, 'table', 'table');
    const controls = requireChild(element, '[data-scroll-controls]', 'scroll controls');
    const prev = requireChild<HTMLButtonElement>(controls, 'button[data-scroll-prev]', 'previous button');
    const next = requireChild<HTMLButtonElement>(controls, 'button[data-scroll-next]', 'next button');
    undo.removeAttribute(controls, 'hidden');
    undo.addClass(element, 'is-enhanced');
    attachScrollButtons({ env, undo, viewport, prev, next, step: () => TABLE_SCROLL_STEP_PX });
  });
}
