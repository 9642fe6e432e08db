import type { IslandHydrateTrigger } from 'contracts';
import { captureEarlyInteractions } from './earlyInteractions.js';

/** How far below the viewport a `visible` island starts loading, so it is ready when seen. */
export const VISIBLE_ROOT_MARGIN = '200px 0px';
/** Longest wait for an idle moment before an `idle` island hydrates anyway (ms). */
export const IDLE_TIMEOUT_MS = 2000;

/**
 * Set on an island while it waits for its trigger (value: the trigger), removed when it fires:
 * its server markup is live; a click on it is held for replay (see earlyInteractions).
 */
export const ISLAND_WAITING_ATTRIBUTE = 'data-island-waiting';

/** The first user gestures that wake an `interaction` island. */
const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/**
 * Calls `run` once when `trigger` fires for `element`: at once, when the browser is idle, when the
 * element nears the viewport, or on the first interaction with it; a click or an edit on the
 * island fires any trigger early. Without the browser API a trigger needs (old browsers, tests),
 * it runs at once. Clicks and field edits on the island are kept until `run` (its returned
 * promise) settles, then replayed (earlyInteractions).
 * Returns a cancel function.
 */
export function whenTriggered(element: HTMLElement, trigger: IslandHydrateTrigger, run: () => void | Promise<unknown>): () => void {
  let done = false;
  const early = captureEarlyInteractions(element, () => once());
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    element.removeAttribute(ISLAND_WAITING_ATTRIBUTE);
    let settled: Promise<unknown>;
    try {
      settled = Promise.resolve(run());
    } catch (error) {
      settled = Promise.reject(error);
    }
    settled.then(early.release, early.release);
  };
  let cancel: () => void = () => {};
  const view = element.ownerDocument.defaultView;
  if (trigger === 'idle' && view && typeof view.requestIdleCallback === 'function') {
    const handle = view.requestIdleCallback(once, { timeout: IDLE_TIMEOUT_MS });
    cancel = () => view.cancelIdleCallback(handle);
  } else if (trigger === 'visible' && view && typeof view.IntersectionObserver === 'function') {
    const observer = new view.IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) once();
    }, { rootMargin: VISIBLE_ROOT_MARGIN });
    observer.observe(element);
    cancel = () => observer.disconnect();
  } else if (trigger === 'interaction') {
    for (const type of INTERACTION_EVENTS) element.addEventListener(type, once, { passive: true });
    cancel = () => {
      for (const type of INTERACTION_EVENTS) element.removeEventListener(type, once);
    };
  } else {
    once();
    return () => {
      done = true;
      early.release();
    };
  }
  element.setAttribute(ISLAND_WAITING_ATTRIBUTE, trigger);
  return () => {
    if (!done) element.removeAttribute(ISLAND_WAITING_ATTRIBUTE);
    done = true;
    cancel();
    early.release();
  };
}
