import { INSIGHTS_COOKIE_LIFETIME_DAYS } from 'contracts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Name of search-insights' anonymous token cookie (the same token before and after the full island loads). */
export const INSIGHTS_TOKEN_COOKIE = '_ALGOLIA';
/** search-insights' prefix of an anonymous token: only such a cookie is taken over. */
const ANONYMOUS_PREFIX = 'anonymous-';

/** The anonymous token in the cookie, or `undefined`. */
export function readInsightsToken(doc: Document = document): string | undefined {
  for (const part of doc.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === INSIGHTS_TOKEN_COOKIE && value.join('=').startsWith(ANONYMOUS_PREFIX)) return value.join('=');
  }
  return undefined;
}

/**
 * The anonymous token, created and kept for `INSIGHTS_COOKIE_LIFETIME_DAYS` as search-insights
 * does (`anonymous-<uuid>`, same cookie, path and lifetime), so the full island's client goes on
 * with the token the binding's events used.
 */
export function ensureInsightsToken(doc: Document = document, now: number = Date.now()): string {
  const existing = readInsightsToken(doc);
  if (existing) return existing;
  const token = `${ANONYMOUS_PREFIX}${crypto.randomUUID()}`;
  const expires = new Date(now + INSIGHTS_COOKIE_LIFETIME_DAYS * DAY_MS).toUTCString();
  doc.cookie = `${INSIGHTS_TOKEN_COOKIE}=${token};expires=${expires};path=/`;
  return token;
}

/** Deletes the anonymous token cookie (consent withdrawn). */
export function forgetInsightsToken(doc: Document = document): void {
  doc.cookie = `${INSIGHTS_TOKEN_COOKIE}=;expires=Thu, 01 Jan 1970 00:00:00 GMT;path=/`;
}
