import { DIALOG_CLOSE_DELAY_MS } from 'contracts';
import type { WidgetEnv } from '../../enhance/env.js';
import type { UndoStack } from '../../enhance/undo.js';
import { focusableIn, wrapTabFocus } from './focus.js';
import { lockPageScroll } from './scrollLock.js';

export interface ModalOptions {
  /** The dialog element: hidden while closed, `is-open` while open, `is-closing` during the close delay. */
  element: HTMLElement;
  /** Buttons that request closing. */
  closeButtons: HTMLElement[];
  env: WidgetEnv;
  undo: UndoStack;
  /** A click on the dialog element itself (its backdrop) closes it. Default true. */
  closeOnBackdrop?: boolean;
  /** Element focused on open. Default: the first focusable element inside, else the dialog. */
  initialFocus?: () => HTMLElement | null;
  /** Extra keys while open (e.g. arrows in the lightbox); Escape and Tab are handled already. */
  onKeydown?: (event: KeyboardEvent) => void;
}

export interface ModalController {
  /** Opens the dialog; focus returns to `trigger` (default: the focused element) on close. */
  open(trigger?: HTMLElement | null): void;
  /** Closes after the dialog close delay (at once when reduced motion is asked for). */
  requestClose(): void;
  /** Closes at once; `returnFocus` false when the visitor is navigating away (nav links). */
  closeNow(returnFocus: boolean): void;
  isOpen(): boolean;
}

/**
 * Modal behaviour shared by dialogs, navigation dialogs and the lightbox: focus moves in and is
 * trapped, Escape and close buttons close after DIALOG_CLOSE_DELAY_MS, focus returns to the
 * trigger, the page behind does not scroll.
 */
export function createModal(options: ModalOptions): ModalController {
  const { element, closeButtons, env, undo, closeOnBackdrop = true, onKeydown } = options;
  const { document: doc, window: win } = env;
  let state: 'closed' | 'open' | 'closing' = 'closed';
  let returnTo: HTMLElement | null = null;
  let trigger: HTMLElement | null = null;
  let unlockScroll: (() => void) | null = null;
  let closeTimer = 0;

  const initialFocus = () => options.initialFocus?.() ?? focusableIn(element)[0] ?? element;

  undo.setAttribute(element, 'hidden', '');
  // Registered first so that it runs last: an unmount while open leaves the page scrollable.
  undo.defer(() => {
    if (state !== 'closed') finish(false);
  });

  function finish(returnFocus: boolean) {
    win.clearTimeout(closeTimer);
    state = 'closed';
    element.hidden = true;
    element.classList.remove('is-open', 'is-closing');
    unlockScroll?.();
    unlockScroll = null;
    trigger?.setAttribute('aria-expanded', 'false');
    const target = returnTo;
    returnTo = null;
    trigger = null;
    if (returnFocus && target?.isConnected) target.focus();
  }

  const controller: ModalController = {
    open(openedBy) {
      if (state === 'closing') {
        win.clearTimeout(closeTimer);
        element.classList.remove('is-closing');
        state = 'open';
        return;
      }
      if (state === 'open') return;
      state = 'open';
      const active = doc.activeElement;
      returnTo = openedBy ?? (active instanceof win.HTMLElement && active !== doc.body ? active : null);
      trigger = openedBy ?? null;
      trigger?.setAttribute('aria-expanded', 'true');
      element.hidden = false;
      element.classList.add('is-open');
      unlockScroll = lockPageScroll(doc);
      initialFocus().focus();
    },
    requestClose() {
      if (state !== 'open') return;
      if (env.reducedMotion()) {
        finish(true);
        return;
      }
      state = 'closing';
      element.classList.add('is-closing');
      closeTimer = win.setTimeout(() => finish(true), DIALOG_CLOSE_DELAY_MS);
    },
    closeNow(returnFocus) {
      if (state !== 'closed') finish(returnFocus);
    },
    isOpen: () => state !== 'closed',
  };

  undo.listen(element, 'keydown', (event) => {
    if (state === 'closed') return;
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      controller.requestClose();
    } else if (wrapTabFocus(element, event)) {
      event.preventDefault();
    } else {
      onKeydown?.(event);
    }
  });
  for (const button of closeButtons) undo.listen(button, 'click', () => controller.requestClose());
  if (closeOnBackdrop) {
    undo.listen(element, 'click', (event) => {
      if (event.target === element) controller.requestClose();
    });
  }
  // Focus that escapes (a click behind the dialog, assistive technology) is brought back in.
  undo.listen(doc, 'focusin', (event) => {
    if (state !== 'open' || !(event.target instanceof win.Element) || element.contains(event.target)) return;
    // Another modal opened on top of this one (a lightbox from a gallery inside a dialog) keeps its focus.
    // So does the shell's native consent <dialog>, opened from a cookie link inside this dialog.
    if (event.target.closest('[aria-modal="true"]:not([hidden]), dialog[open]')) return;
    initialFocus().focus();
  });
  return controller;
}
