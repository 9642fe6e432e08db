/**
 * Business constants and limits of the product specification, point 9.
 * Every number lives here once, named, and is imported where it is used.
 */

/** Search query debounce before a search is sent (ms). */
export const SEARCH_DEBOUNCE_MS = 500;
/** Autocomplete shows "stalled" when no response came after this long (ms). */
export const AUTOCOMPLETE_STALL_THRESHOLD_MS = 300;
/** The hit list shows "stalled" when no response came after this long (ms). */
export const LIST_STALLED_DELAY_MS = 200;
/** Delay before search state is written to the query string (ms). */
export const URL_WRITE_DELAY_MS = 400;
/** Debounce of the autocomplete items-view insights event (ms). */
export const AUTOCOMPLETE_ITEMS_VIEW_DEBOUNCE_MS = 400;
/** Maximum length of the search input (characters). */
export const SEARCH_INPUT_MAX_LENGTH = 512;
/** Suggestion tags shown at most. */
export const SUGGESTIONS_SHOWN = 5;
/** How long search results are cached on the client (seconds), while the search index's version (what its indexer last synced) stays the same. */
export const SEARCH_CACHE_SECONDS = 120;
/** Hits per page assumed for an empty result. */
export const DEFAULT_HITS_PER_PAGE = 20;
/** Facet checkbox options shown by default. */
export const FACET_LIMIT = 10;
/** Facet checkbox options shown after "show more". */
export const FACET_SHOW_MORE_LIMIT = 20;
/** Facet-value search results cap. */
export const FACET_SEARCH_CAP = 100;
/** Highlight affix (tokens each side of a match) requested from the search server. */
export const HIGHLIGHT_AFFIX_TOKENS = 30;
/** Object ids per insights event (events are chunked to this size). */
export const INSIGHTS_EVENT_CHUNK = 20;
/** Lifetime of the anonymous insights token cookie (days). */
export const INSIGHTS_COOKIE_LIFETIME_DAYS = 180;
/** Maximum array length parsed from the query string. */
export const QUERY_STRING_ARRAY_LIMIT = 99;
/** How long the "link copied" confirmation shows (ms). */
export const COPY_CONFIRMATION_MS = 2000;
/** Delay between a dialog's close request and it being hidden (ms). */
export const DIALOG_CLOSE_DELAY_MS = 300;
/** Scroll offset after which the header is "scrolled" (px). */
export const HEADER_SCROLLED_THRESHOLD_PX = 20;
/** Step of the scrollable table's previous/next buttons (px). */
export const TABLE_SCROLL_STEP_PX = 100;
/** Gallery slider animation speed (ms). */
export const GALLERY_SLIDE_SPEED_MS = 450;
/** Gallery slider gap between slides (px). */
export const GALLERY_SLIDE_GAP_PX = 12;
/** Competence slider gap between slides (px). */
export const COMPETENCE_SLIDER_GAP_PX = -1;
/** Competence slider animation speed (ms). */
export const COMPETENCE_SLIDER_SPEED_MS = 450;
/** Competence slider: share of the viewport a drag must cover to change slide. */
export const COMPETENCE_SLIDER_SPLIT_RATIO = 0.2;
/** Viewport width from which the competence slider shows two slides (px). */
export const COMPETENCE_SLIDER_TWO_SLIDES_MIN_WIDTH_PX = 960;
/** Lightbox padding above the image (px). */
export const LIGHTBOX_PADDING_TOP_PX = 50;
/** Lightbox padding below the image, room for caption and thumbnails (px). */
export const LIGHTBOX_PADDING_BOTTOM_PX = 200;

/** Default name of the search index (spec: "a competence-articles index"). */
export const DEFAULT_SEARCH_INDEX_NAME = 'competence-articles';
/** File name of the downloaded watchlist PDF. */
export const WATCHLIST_PDF_FILE_NAME = 'KHS-competence.pdf';
/** Loading dummy data in the watchlist's standalone design mode takes this long (ms). */
export const WATCHLIST_DESIGN_MODE_DELAY_MS = 1500;
