import type { IslandHydrateTrigger } from 'contracts';

/** How far below the viewport a `visible` island starts loading, so it is ready when seen. */
export const VISIBLE_ROOT_MARGIN = '200px 0px';
/** Longest wait for an idle moment before an `idle` island hydrates anyway (ms). */
export const IDLE_TIMEOUT_MS = 2000;

/** The first user gestures that wake an `interaction` island. */
const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/**
 * Calls `run` once when `trigger` fires for `element`: at once, when the browser is idle, when the
 * element nears the viewport, or on the first interaction with it. Without the browser API a
 * trigger needs (old browsers, tests), it runs at once. Returns a cancel function.
 */
export function whenTriggered(element: HTMLElement, trigger: IslandHydrateTrigger, run: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancel();
    run();
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
    return () => {};
  }
  return () => {
    done = true;
    cancel();
  };
}
