/**
 * Pages a team service composes: the shell answers the path with the service's `PageFragment` for
 * the same path, wrapped in the site layout (the service declares the page in its edge policy).
 * `{name}` placeholders as in the call URLs.
 */
export const SERVICE_PAGE_PATHS = {
  /** A watchlist someone shared, read-only, with the import island (the watchlist service; its sharing URLs point here). */
  sharedWatchlist: '/watchlist/shared/{shareId}',
  /** The editors' search report (the search team's service; editor token required, `noindex`). */
  searchReport: '/editors/search-report',
} as const;

/**
 * Paths of the contact service (the contact slice). The shell serves `/contact` in its layout and
 * asks the service for the page's content (`PageFragment` answers); the form post goes to the
 * service at the page's own path.
 */
export const CONTACT_SERVICE_PATHS = {
  /** The page as visitors see it, and the form's action. */
  page: '/contact',
  /** The page's content: the form (with the token the edge passes), or the confirmation for `?sent=`. */
  pageFragment: '/contact/fragment',
  /** The content of a refused post (`{status}`: 400, 403, 413, 415, 429, 500), for refusals the edge answers itself. */
  problemFragment: '/contact/problem/{status}',
} as const;

/**
 * Form pages a team service composes and receives posts for (a service declares one in its edge
 * policy's `formPages` by its name here): the page, the path of its content (`PageFragment`, with
 * the form token the edge made in `x-khs-form-token`) and of the content explaining a post the edge
 * refused itself (`{status}`).
 */
export const SERVICE_FORM_PAGE_PATHS = {
  contact: { page: CONTACT_SERVICE_PATHS.page, content: CONTACT_SERVICE_PATHS.pageFragment, problem: CONTACT_SERVICE_PATHS.problemFragment },
} as const;

/** Name of a form's CSRF token field, checked by the edge before the post goes on (a plain form cannot send the `X-CSRF-Token` header); the form sends it first. */
export const FORM_TOKEN_FIELD = '_csrf';

/** Name of the contact form's token field. @deprecated Since 1.5.0: use `FORM_TOKEN_FIELD` (kept for remotes built against 1.2–1.4). */
export const CONTACT_TOKEN_FIELD = FORM_TOKEN_FIELD;
