/** One remote previewed at one build until `expires` (ms since the epoch). */
export interface RemotePreview {
  remote: string;
  version: string;
  expires: number;
}

export const PREVIEW_LINK_PATH: '/__preview';
export const PREVIEW_SECRET_ENV: 'REMOTE_PREVIEW_SECRET';
export const PREVIEW_SECRET_MIN_LENGTH: number;
export const DEFAULT_PREVIEW_TTL_MS: number;
/** HMAC-SHA256 (base64url) of one preview. */
export function signPreview(preview: RemotePreview, secret: string): string;
/** `<site>/__preview?remote=…&version=…&expires=…&sig=…`; `expires` defaults to now + 24 h. */
export function previewLink(options: { site: string; remote: string; version: string; secret: string; expires?: number; now?: number }): string;
/** Well formed, signed with `secret`, not expired at `now` (default now). */
export function verifyPreview(preview: { remote?: unknown; version?: unknown; expires?: unknown; sig?: unknown }, secret: string, now?: number): preview is RemotePreview & { sig: string };
/** A link's `expires` (decimal string) as a number; NaN when it is not one. */
export function parseExpires(value: unknown): number;
