/**
 * Pages a team service composes: the shell answers the path with the service's `PageFragment` for
 * the same path, wrapped in the site layout (the service declares the page in its edge policy).
 * `{name}` placeholders as in the call URLs.
 */
export const SERVICE_PAGE_PATHS = {
  /** A watchlist someone shared, read-only, with the import island (the watchlist service; its sharing URLs point here). */
  sharedWatchlist: '/watchlist/shared/{shareId}',
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

/** Name of the contact form's token field (a plain form cannot send the `X-CSRF-Token` header). */
export const CONTACT_TOKEN_FIELD = '_csrf';

/**
 * Largest contact post (bytes), refused by its declared length at the edge and by the service:
 * the largest attachment (5 MB, spec) plus 1 MiB for the text fields and the multipart framing.
 */
export const CONTACT_POST_MAX_BYTES = 6 * 1024 * 1024;
