// What a search hit's links may hold. The indexer refuses other values and the remote renders
// none: an indexed `javascript:` url must never become a link on a page, and an `https://` link
// to anywhere is only acceptable because the index is written with the admin key, server-side.

/** Schemes a search hit's `url` and `image` may resolve to (a relative reference takes the page's). */
export const SAFE_HIT_URL_SCHEMES: readonly string[] = ['http:', 'https:'];

/** Base a relative reference is resolved against to learn its scheme (never fetched). */
const RELATIVE_BASE = 'http://relative.invalid/';

/**
 * True when `value` is a relative reference (`/articles/x`, `x.svg`, `//host/x`) or an absolute
 * `http:`/`https:` URL. It is parsed the way a browser parses an `href` (WHATWG URL: leading
 * spaces and control characters dropped, tabs and newlines removed), so `" JaVa\tScript:…"` is
 * recognised as the `javascript:` URL a browser would follow. Non-strings are not safe.
 */
export function isSafeHitUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return SAFE_HIT_URL_SCHEMES.includes(new URL(value, RELATIVE_BASE).protocol);
  } catch {
    return false;
  }
}
