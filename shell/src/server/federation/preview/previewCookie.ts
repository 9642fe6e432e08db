import { verifyPreview, type RemotePreview } from '@khs/deploy/preview-link';

/** The cookie that holds a browser's active previews (each still carrying its link's signature). */
export const PREVIEW_COOKIE_NAME = 'khs_remote_preview';

/** One active preview as the cookie keeps it: the signed link's fields. */
export interface SignedPreview extends RemotePreview {
  sig: string;
}

/** At most this many previews at once (one per remote is plenty; a longer cookie is ignored). */
const MAX_PREVIEWS = 16;

/**
 * The cookie's value: the previews, base64url JSON. Not signed again: each entry keeps its link's
 * HMAC and is verified on every request, so a changed entry is simply ignored.
 */
export function encodePreviewCookie(previews: readonly SignedPreview[]): string {
  return Buffer.from(JSON.stringify(previews.map(({ remote, version, expires, sig }) => ({ remote, version, expires, sig })))).toString('base64url');
}

/**
 * The previews of a cookie value that are well formed, signed with `secret` and not expired at
 * `now`; forged, expired or unreadable entries are dropped (the visitor sees the live build).
 */
export function activePreviews(cookie: string | undefined, secret: string, now: number): SignedPreview[] {
  if (!cookie || cookie.length > 8192) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed) || parsed.length > MAX_PREVIEWS) return [];
  const byRemote = new Map<string, SignedPreview>();
  for (const entry of parsed as unknown[]) {
    if (typeof entry === 'object' && entry !== null && verifyPreview(entry as Record<string, unknown>, secret, now)) {
      const preview = entry as SignedPreview;
      byRemote.set(preview.remote, { remote: preview.remote, version: preview.version, expires: preview.expires, sig: preview.sig });
    }
  }
  return [...byRemote.values()];
}

/** `previews` with `added` in place of any earlier preview of the same remote. */
export function withPreview(previews: readonly SignedPreview[], added: SignedPreview): SignedPreview[] {
  return [...previews.filter((preview) => preview.remote !== added.remote), added];
}
