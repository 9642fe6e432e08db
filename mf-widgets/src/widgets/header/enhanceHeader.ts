import { HEADER_SCROLLED_THRESHOLD_PX } from 'contracts';
import type { WidgetEnv } from '../../enhance/env.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { nextFrame } from '../shared/frame.js';

/** Class the site header carries once the page scrolled past the threshold (styled by the shell). */
export const HEADER_SCROLLED_CLASS = 'is-scrolled';

/**
 * Site header (`[data-site-header]`): `is-scrolled` while the page is scrolled more than
 * HEADER_SCROLLED_THRESHOLD_PX, removed again above it.
 */
export function enhanceHeader(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const update = () => element.classList.toggle(HEADER_SCROLLED_CLASS, env.window.scrollY > HEADER_SCROLLED_THRESHOLD_PX);
    undo.listen(env.window, 'scroll', update, { passive: true });
    undo.defer(() => element.classList.remove(HEADER_SCROLLED_CLASS));
    // Reading scrollY can force a layout of the whole page; the next frame has one anyway.
    nextFrame(env.window, undo, update);
  });
}
