import type { WidgetDefinition } from '../enhance/engine.js';
import { enhanceCookieLink } from './cookieLink/enhanceCookieLink.js';
import { enhanceDialog } from './dialog/enhanceDialog.js';
import { enhanceDialogTrigger } from './dialog/enhanceDialogTrigger.js';
import { enhanceExternalLink } from './externalLinks/enhanceExternalLink.js';
import { enhanceHeader } from './header/enhanceHeader.js';

/**
 * The behaviours of every page (the layout's scrolled header, dialogs such as the navigation's,
 * new-tab links, the cookie-settings link): what a page without content widgets loads. Dialogs
 * come before their triggers so that a trigger finds its dialog enhanced in the same pass.
 */
export const PAGE_WIDE_WIDGETS: readonly WidgetDefinition[] = [
  { name: 'external-link', selector: 'a[target="_blank" i]', enhance: enhanceExternalLink },
  { name: 'cookie-link', selector: 'a[href="#cookie-banner"]', enhance: enhanceCookieLink },
  { name: 'header', selector: '[data-site-header]', enhance: enhanceHeader },
  { name: 'dialog', selector: '[data-widget="dialog"]', enhance: enhanceDialog },
  { name: 'dialog-trigger', selector: '[data-dialog-open]', enhance: enhanceDialogTrigger },
];
