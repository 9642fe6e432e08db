import type { WidgetEnv } from '../../enhance/env.js';
import { withUndo, type Cleanup } from '../../enhance/undo.js';

/**
 * A link that opens a new tab (`a[target="_blank"]`) gets `noopener` in its `rel`, so the new
 * page cannot reach back into this one through `window.opener`. Other rel tokens stay.
 */
export function enhanceExternalLink(element: HTMLElement, _env: WidgetEnv): Cleanup {
  return withUndo((undo) => {
    const tokens = (element.getAttribute('rel') ?? '').split(/\s+/).filter(Boolean);
    if (tokens.some((token) => token.toLowerCase() === 'noopener')) return;
    undo.setAttribute(element, 'rel', [...tokens, 'noopener'].join(' '));
  });
}
