import { randomBytes } from 'node:crypto';

const SHARE_ID_BYTES = 16;
/** base64url of 16 bytes: 22 characters of [A-Za-z0-9_-]. */
const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new unguessable share id: 128 random bits, base64url. */
export function newShareId(): string {
  return randomBytes(SHARE_ID_BYTES).toString('base64url');
}

/** Whether `id` has the shape of a share id (so lookups of garbage skip the database). */
export function isShareId(id: string): boolean {
  return SHARE_ID_PATTERN.test(id);
}
