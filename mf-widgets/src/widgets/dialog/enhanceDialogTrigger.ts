import type { WidgetEnv } from '../../enhance/env.js';
import { MarkupError } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';
import { DIALOG_OPEN_EVENT, type DialogOpenDetail } from './enhanceDialog.js';

/**
 * A dialog trigger (`[data-dialog-open="<dialog id>"]`, usually `<a href="#<dialog id>">` so it
 * jumps to the dialog's content without script). A click asks the dialog to open; when the
 * dialog is not enhanced (broken markup) the link keeps its native jump.
 */
export function enhanceDialogTrigger(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const dialogId = element.dataset.dialogOpen ?? '';
    const dialog = dialogId ? env.document.getElementById(dialogId) : null;
    if (!dialog) throw new MarkupError(`no dialog with id "${dialogId}"`);
    undo.setAttribute(element, 'aria-haspopup', 'dialog');
    undo.setAttribute(element, 'aria-controls', dialogId);
    undo.setAttribute(element, 'aria-expanded', 'false');
    const isLink = element instanceof env.window.HTMLAnchorElement;
    if (isLink) undo.setAttribute(element, 'role', 'button');

    const open = (event: Event) => {
      const target = env.document.getElementById(dialogId);
      if (!target) return;
      const request = new env.window.CustomEvent<DialogOpenDetail>(DIALOG_OPEN_EVENT, { cancelable: true, detail: { trigger: element } });
      if (!target.dispatchEvent(request)) event.preventDefault();
    };
    undo.listen(element, 'click', open);
    // role="button" on a link promises Space activation too.
    if (isLink) {
      undo.listen(element, 'keydown', (event) => {
        if (event.key !== ' ') return;
        event.preventDefault();
        element.click();
      });
    }
  });
}
