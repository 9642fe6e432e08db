import type { WidgetEnv } from '../../enhance/env.js';
import { MarkupError, requireChildren } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { createModal } from '../shared/modal.js';

/** Event a dialog trigger dispatches on its dialog; the dialog cancels it when it opened. */
export const DIALOG_OPEN_EVENT = 'mf-widgets:dialog-open';

export interface DialogOpenDetail {
  trigger: HTMLElement;
}

/**
 * Generic and navigation dialogs (`[data-widget="dialog"]`, with an id, `aria-labelledby` or
 * `aria-label`, and a `[data-dialog-close]` button). Without script the dialog is an ordinary
 * section its trigger links to. Enhanced, it is a modal: hidden until a trigger
 * (`[data-dialog-open="<id>"]`) opens it; focus moves in and is trapped; Escape, the close button
 * or the backdrop close it after the dialog close delay; focus returns to the trigger; the page
 * does not scroll behind it. A navigation dialog (`data-dialog-variant="navigation"`) closes at
 * once when one of its links is followed.
 */
export function enhanceDialog(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    if (!element.id) throw new MarkupError('a dialog needs an id for its triggers');
    if (!element.hasAttribute('aria-labelledby') && !element.hasAttribute('aria-label')) {
      throw new MarkupError('a dialog needs aria-labelledby or aria-label');
    }
    const closeButtons = requireChildren(element, '[data-dialog-close]', 'close button');
    undo.setAttribute(element, 'role', 'dialog');
    undo.setAttribute(element, 'aria-modal', 'true');
    undo.addClass(element, 'is-enhanced');
    for (const button of closeButtons) undo.removeAttribute(button, 'hidden');

    const modal = createModal({ element, closeButtons, env, undo });
    undo.listen(element, DIALOG_OPEN_EVENT, (event) => {
      event.preventDefault();
      modal.open((event as CustomEvent<DialogOpenDetail>).detail?.trigger ?? null);
    });
    if (element.dataset.dialogVariant === 'navigation') {
      undo.listen(element, 'click', (event) => {
        const link = (event.target as Element).closest('a[href]');
        if (!link || !modal.isOpen()) return;
        // Following a link: close before the browser navigates or jumps, without pulling focus
        // back to the trigger; a link within the page takes keyboard focus to its target.
        modal.closeNow(false);
        const href = link.getAttribute('href') ?? '';
        const target = href.startsWith('#') && href.length > 1 ? env.document.getElementById(decodeURIComponent(href.slice(1))) : null;
        if (!target) return;
        if (!target.hasAttribute('tabindex')) undo.setAttribute(target, 'tabindex', '-1');
        target.focus({ preventScroll: true });
      });
    }
  });
}
