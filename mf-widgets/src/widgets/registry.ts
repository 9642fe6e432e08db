import type { WidgetDefinition } from '../enhance/engine.js';
import { CONTENT_WIDGETS } from './contentWidgets.js';
import { PAGE_WIDE_WIDGETS } from './pageWideWidgets.js';

/**
 * The markup contract: which elements each widget enhances (see README.md): the page-wide
 * behaviours (`pageWideWidgets.ts`, loaded with `PageWidgets`) and the content widgets
 * (`contentWidgets.ts`, loaded when a page has one). Dialogs come before their triggers.
 */
export const WIDGETS: readonly WidgetDefinition[] = [...PAGE_WIDE_WIDGETS, ...CONTENT_WIDGETS];
