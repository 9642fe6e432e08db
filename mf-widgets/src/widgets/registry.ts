import type { WidgetDefinition } from '../enhance/engine.js';
import { enhanceCompetenceSlider } from './competenceSlider/enhanceCompetenceSlider.js';
import { enhanceCookieLink } from './cookieLink/enhanceCookieLink.js';
import { enhanceDialog } from './dialog/enhanceDialog.js';
import { enhanceDialogTrigger } from './dialog/enhanceDialogTrigger.js';
import { enhanceExternalLink } from './externalLinks/enhanceExternalLink.js';
import { enhanceFileUpload } from './fileUpload/enhanceFileUpload.js';
import { enhanceGallery } from './gallery/enhanceGallery.js';
import { enhanceHeader } from './header/enhanceHeader.js';
import { enhanceHorizontalScroller } from './horizontalScroller/enhanceHorizontalScroller.js';
import { enhancePasswordToggle } from './passwordToggle/enhancePasswordToggle.js';
import { enhanceReadingProgress } from './readingProgress/enhanceReadingProgress.js';
import { enhanceScrollTable } from './scrollTable/enhanceScrollTable.js';
import { enhanceTabs } from './tabs/enhanceTabs.js';
import { enhanceVideo } from './video/enhanceVideo.js';

/**
 * The markup contract: which elements each widget enhances (see README.md). Dialogs come
 * before their triggers so that a trigger finds its dialog enhanced in the same pass.
 */
export const WIDGETS: readonly WidgetDefinition[] = [
  { name: 'external-link', selector: 'a[target="_blank" i]', enhance: enhanceExternalLink },
  { name: 'cookie-link', selector: 'a[href="#cookie-banner"]', enhance: enhanceCookieLink },
  { name: 'header', selector: '[data-site-header]', enhance: enhanceHeader },
  { name: 'reading-progress', selector: '[data-reading-progress]', enhance: enhanceReadingProgress },
  { name: 'dialog', selector: '[data-widget="dialog"]', enhance: enhanceDialog },
  { name: 'dialog-trigger', selector: '[data-dialog-open]', enhance: enhanceDialogTrigger },
  { name: 'tabs', selector: '[data-widget="tabs"]', enhance: enhanceTabs },
  { name: 'gallery', selector: '[data-widget="gallery"]', enhance: enhanceGallery },
  { name: 'competence-slider', selector: '[data-widget="competence-slider"]', enhance: enhanceCompetenceSlider },
  { name: 'scroll-table', selector: '[data-widget="scroll-table"]', enhance: enhanceScrollTable },
  { name: 'h-scroll', selector: '[data-widget="h-scroll"]', enhance: enhanceHorizontalScroller },
  { name: 'password-toggle', selector: '[data-widget="password-toggle"]', enhance: enhancePasswordToggle },
  { name: 'file-upload', selector: '[data-widget="file-upload"]', enhance: enhanceFileUpload },
  { name: 'video', selector: '[data-widget="video"]', enhance: enhanceVideo },
];
