// Signed preview links of a remote's candidate build (`khs-deploy deploy --preview`), checked by the
// shell (`/__preview` and the preview cookie). The one place their format and signature live.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The site path a preview link opens. */
export const PREVIEW_LINK_PATH = '/__preview';
/** The environment variable holding the operators' secret that signs preview links. */
export const PREVIEW_SECRET_ENV = 'REMOTE_PREVIEW_SECRET';
/** Shortest secret accepted (characters). */
export const PREVIEW_SECRET_MIN_LENGTH = 16;
/** How long a preview link (and the cookie it sets) is valid by default: 24 hours. */
export const DEFAULT_PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

const REMOTE_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const BUILD_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/;

/**
 * HMAC-SHA256 (base64url) of one preview: remote, version and expiry (ms since the epoch).
 * @param {{ remote: string, version: string, expires: number }} preview
 * @param {string} secret
 */
export function signPreview(preview, secret) {
  return createHmac('sha256', secret).update(`khs-remote-preview\n${preview.remote}\n${preview.version}\n${preview.expires}`).digest('base64url');
}

/**
 * The link that opens a preview on `site`: `<site>/__preview?remote=…&version=…&expires=…&sig=…`.
 * @param {{ site: string, remote: string, version: string, secret: string, expires?: number, now?: number }} options
 *   `expires` defaults to `now` (default `Date.now()`) plus 24 hours.
 */
export function previewLink({ site, remote, version, secret, expires, now = Date.now() }) {
  if (!secret || secret.length < PREVIEW_SECRET_MIN_LENGTH) throw new Error(`the preview secret must be at least ${PREVIEW_SECRET_MIN_LENGTH} characters`);
  const preview = { remote, version, expires: expires ?? now + DEFAULT_PREVIEW_TTL_MS };
  if (!isPreview(preview)) throw new Error(`not a remote name and build version: ${remote} ${version}`);
  const url = new URL(PREVIEW_LINK_PATH, site);
  url.searchParams.set('remote', preview.remote);
  url.searchParams.set('version', preview.version);
  url.searchParams.set('expires', String(preview.expires));
  url.searchParams.set('sig', signPreview(preview, secret));
  return url.href;
}

/**
 * Whether `preview` is well formed, signed with `secret` and not expired at `now`.
 * @param {{ remote?: unknown, version?: unknown, expires?: unknown, sig?: unknown }} preview
 * @param {string} secret
 * @param {number} [now] default `Date.now()`
 */
export function verifyPreview(preview, secret, now = Date.now()) {
  if (!secret || !isPreview(preview) || typeof preview.sig !== 'string' || preview.expires <= now) return false;
  const expected = Buffer.from(signPreview(preview, secret));
  const given = Buffer.from(preview.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Reads `expires` of a link's query (a decimal string) as a number; NaN when it is not one. */
export function parseExpires(value) {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
}

function isPreview(preview) {
  return (
    typeof preview?.remote === 'string' &&
    REMOTE_NAME.test(preview.remote) &&
    typeof preview.version === 'string' &&
    BUILD_VERSION.test(preview.version) &&
    !preview.version.includes('..') &&
    Number.isSafeInteger(preview.expires)
  );
}
