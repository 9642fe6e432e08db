import type { WidgetEnv } from '../../enhance/env.js';
import { ensureId, requireChild } from '../../enhance/markup.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/** Button texts when the markup gives none (`data-label-show`, `data-label-hide`). */
export const DEFAULT_SHOW_LABEL = 'Show password';
export const DEFAULT_HIDE_LABEL = 'Hide password';

/**
 * Password show/hide toggle (`[data-widget="password-toggle"]` around an
 * `input[type="password"]` and a hidden `button[data-password-toggle]`). The button's name
 * says what a press does in the current state: "Show password" while hidden, "Hide password"
 * while shown. Unmount hides the password again.
 */
export function enhancePasswordToggle(element: HTMLElement, _env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const input = requireChild<HTMLInputElement>(element, 'input[type="password"]', 'password input');
    const button = requireChild<HTMLButtonElement>(element, 'button[data-password-toggle]', 'toggle button');
    const showLabel = button.dataset.labelShow ?? DEFAULT_SHOW_LABEL;
    const hideLabel = button.dataset.labelHide ?? DEFAULT_HIDE_LABEL;
    const originalText = button.textContent;
    const inputId = ensureId(input, 'password', (el, name, value) => undo.setAttribute(el, name, value));

    const render = (shown: boolean) => {
      input.type = shown ? 'text' : 'password';
      button.textContent = shown ? hideLabel : showLabel;
    };
    undo.setAttribute(button, 'aria-controls', inputId);
    undo.removeAttribute(button, 'hidden');
    undo.defer(() => {
      input.type = 'password';
      button.textContent = originalText;
    });
    undo.listen(button, 'click', () => render(input.type === 'password'));
    render(false);
  });
}
