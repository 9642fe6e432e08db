import type { WidgetEnv } from '../../enhance/env.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/** Where the shell's consent panel lives; links to it open the panel instead of jumping. */
export const COOKIE_BANNER_HREF = '#cookie-banner';

/**
 * A link to the cookie-banner anchor (`a[href="#cookie-banner"]`) asks the shell for the consent
 * control panel: it emits `consent-panel-requested` on the page bus and does not jump.
 */
export function enhanceCookieLink(element: HTMLElement, env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    undo.setAttribute(element, 'aria-haspopup', 'dialog');
    undo.listen(element, 'click', (event) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      env.bus.emit('consent-panel-requested', { source: 'mf-widgets/cookie-link' });
    });
  });
}
