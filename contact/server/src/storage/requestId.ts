import { randomBytes } from 'node:crypto';

/** base64url of 16 bytes: 22 characters of [A-Za-z0-9_-]. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A new unguessable request id: 128 random bits, base64url. */
export function newRequestId(): string {
  return randomBytes(16).toString('base64url');
}

/** Whether `id` has the shape of a request id (so lookups of garbage skip the database). */
export function isRequestId(id: string): boolean {
  return REQUEST_ID_PATTERN.test(id);
}
