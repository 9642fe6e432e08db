import type { UndoStack } from '../../enhance/undo.js';

/**
 * Runs `read` in the next animation frame (cancelled on undo). Why: layout reads during mount
 * would force a synchronous layout of a long page; the next frame has a fresh layout anyway.
 */
export function nextFrame(win: Window, undo: UndoStack, read: () => void): void {
  if (typeof win.requestAnimationFrame === 'function') {
    const handle = win.requestAnimationFrame(read);
    undo.defer(() => win.cancelAnimationFrame(handle));
  } else {
    const handle = win.setTimeout(read, 0);
    undo.defer(() => win.clearTimeout(handle));
  }
}

/** Coalesces bursts of events (scroll, resize) into one call per animation frame. */
export function perFrame(win: Window, undo: UndoStack, update: () => void): () => void {
  let pending = 0;
  const raf = typeof win.requestAnimationFrame === 'function';
  undo.defer(() => {
    if (!pending) return;
    if (raf) win.cancelAnimationFrame(pending);
    else win.clearTimeout(pending);
  });
  return () => {
    if (pending) return;
    const run = () => {
      pending = 0;
      update();
    };
    pending = raf ? win.requestAnimationFrame(run) : win.setTimeout(run, 0);
  };
}
