import { createHmac, timingSafeEqual } from 'node:crypto';

/** Path prefix of preview pages (`/preview/articles/<id>?expires=…&signature=…`). */
export const PREVIEW_PATH_PREFIX = '/preview/articles/';

/** Shortest accepted preview secret: a short one could be guessed. */
export const PREVIEW_SECRET_MIN_LENGTH = 16;

function signature(id: string, expiresAtSeconds: number, secret: string): string {
  return createHmac('sha256', secret).update(`preview:${id}:${expiresAtSeconds}`).digest('base64url');
}

/**
 * The path of a signed preview of article `id` that works until `expiresAtSeconds` (unix seconds).
 * Signed with HMAC-SHA-256 over the id and the expiry, so neither can be changed.
 */
export function previewPath(id: string, expiresAtSeconds: number, secret: string): string {
  return `${PREVIEW_PATH_PREFIX}${encodeURIComponent(id)}?expires=${expiresAtSeconds}&signature=${signature(id, expiresAtSeconds, secret)}`;
}

/**
 * True when a preview link is genuine and not expired.
 *
 * @param nowMs the current time (unix ms); default `Date.now()`
 */
export function verifyPreviewLink(id: string, expires: unknown, givenSignature: unknown, secret: string, nowMs: number = Date.now()): boolean {
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof givenSignature !== 'string') return false;
  const expiresAt = Number(expires);
  if (expiresAt * 1000 < nowMs) return false;
  const expected = Buffer.from(signature(id, expiresAt, secret));
  const given = Buffer.from(givenSignature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
