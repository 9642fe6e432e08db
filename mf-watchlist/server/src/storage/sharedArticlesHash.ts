import { createHash } from 'node:crypto';

/** Fingerprint of a serialised shared list: equal lists (same entries, same order) share one row. */
export function sharedArticlesHash(json: string): string {
  return createHash('sha256').update(json).digest('base64url');
}
