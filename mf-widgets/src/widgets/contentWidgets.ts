import type { WidgetDefinition } from '../enhance/engine.js';
import { enhanceCompetenceSlider } from './competenceSlider/enhanceCompetenceSlider.js';
import { CONTENT_WIDGET_SELECTORS as at } from './contentWidgetSelectors.js';
import { enhanceFileUpload } from './fileUpload/enhanceFileUpload.js';
import { enhanceGallery } from './gallery/enhanceGallery.js';
import { enhanceHorizontalScroller } from './horizontalScroller/enhanceHorizontalScroller.js';
import { enhancePasswordToggle } from './passwordToggle/enhancePasswordToggle.js';
import { enhanceReadingProgress } from './readingProgress/enhanceReadingProgress.js';
import { enhanceScrollTable } from './scrollTable/enhanceScrollTable.js';
import { enhanceTabs } from './tabs/enhanceTabs.js';
import { enhanceVideo } from './video/enhanceVideo.js';

/** The content widgets (loaded as their own chunk once a page has one, see `PageWidgets`). */
export const CONTENT_WIDGETS: readonly WidgetDefinition[] = [
  { name: 'reading-progress', selector: at['reading-progress'], enhance: enhanceReadingProgress },
  { name: 'tabs', selector: at.tabs, enhance: enhanceTabs },
  { name: 'gallery', selector: at.gallery, enhance: enhanceGallery },
  { name: 'competence-slider', selector: at['competence-slider'], enhance: enhanceCompetenceSlider },
  { name: 'scroll-table', selector: at['scroll-table'], enhance: enhanceScrollTable },
  { name: 'h-scroll', selector: at['h-scroll'], enhance: enhanceHorizontalScroller },
  { name: 'password-toggle', selector: at['password-toggle'], enhance: enhancePasswordToggle },
  { name: 'file-upload', selector: at['file-upload'], enhance: enhanceFileUpload },
  { name: 'video', selector: at.video, enhance: enhanceVideo },
];
