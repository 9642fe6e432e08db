import type { WidgetEnv } from '../../enhance/env.js';
import { ensureId, requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/** Text when no file is chosen and the markup gives none (`data-empty-text`). */
export const DEFAULT_EMPTY_TEXT = 'No file chosen';

/**
 * File-upload field (`[data-widget="file-upload"]` with an `input[type="file"]` and a hidden
 * `[data-file-name]` element). Enhanced, the chosen file's name (several joined by commas)
 * shows in `[data-file-name]`, which describes the input and is announced politely.
 */
export function enhanceFileUpload(element: HTMLElement, _env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const input = requireChild<HTMLInputElement>(element, 'input[type="file"]', 'file input');
    const output = requireChild(element, '[data-file-name]', 'file name element');
    const emptyText = output.dataset.emptyText ?? DEFAULT_EMPTY_TEXT;
    const originalText = output.textContent;
    const outputId = ensureId(output, 'file-name', (el, name, value) => undo.setAttribute(el, name, value));

    const render = () => {
      const names = [...(input.files ?? [])].map((file) => file.name);
      output.textContent = names.length > 0 ? names.join(', ') : emptyText;
      element.classList.toggle('has-file', names.length > 0);
    };
    undo.addClass(element, 'is-enhanced');
    undo.removeAttribute(output, 'hidden');
    undo.setAttribute(output, 'aria-live', 'polite');
    const describedBy = input.getAttribute('aria-describedby');
    undo.setAttribute(input, 'aria-describedby', describedBy ? `${describedBy} ${outputId}` : outputId);
    undo.defer(() => {
      output.textContent = originalText;
      element.classList.remove('has-file');
    });
    undo.listen(input, 'change', render);
    render();
  });
}
