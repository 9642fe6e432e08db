/**
 * Where the content widgets are (the article's widgets, the contact form's fields): their
 * selectors, kept apart from their code so the page-wide engine can tell whether a page has any
 * before it loads them (`contentWidgets.ts` is its own chunk).
 */
export const CONTENT_WIDGET_SELECTORS = {
  'reading-progress': '[data-reading-progress]',
  tabs: '[data-widget="tabs"]',
  gallery: '[data-widget="gallery"]',
  'competence-slider': '[data-widget="competence-slider"]',
  'scroll-table': '[data-widget="scroll-table"]',
  'h-scroll': '[data-widget="h-scroll"]',
  'password-toggle': '[data-widget="password-toggle"]',
  'file-upload': '[data-widget="file-upload"]',
  video: '[data-widget="video"]',
} as const;

/** Any content widget. */
export const CONTENT_WIDGET_SELECTOR = Object.values(CONTENT_WIDGET_SELECTORS).join(',');
