import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a request's API key allows. */
export type KeyAccess =
  | { kind: 'admin' }
  | { kind: 'search'; embedded: Record<string, string> }
  | { kind: 'none' };

export interface KeyConfig {
  adminApiKey: string;
  searchOnlyApiKeys: string[];
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Decodes a scoped search key the way Typesense builds it:
 * base64(base64(HMAC-SHA256(parent, paramsJSON)) + parent[0..4) + paramsJSON).
 * Valid only if the parent is a search-only key and `expires_at` has not passed.
 */
function scopedKeyAccess(key: string, parents: string[], nowSeconds: number): KeyAccess {
  let decoded: string;
  try {
    decoded = Buffer.from(key, 'base64').toString('utf8');
  } catch {
    return { kind: 'none' };
  }
  if (decoded.length <= 48) return { kind: 'none' };
  const digest = decoded.slice(0, 44);
  const prefix = decoded.slice(44, 48);
  const paramsJson = decoded.slice(48);
  for (const parent of parents) {
    if (!parent.startsWith(prefix)) continue;
    const expected = createHmac('sha256', parent).update(paramsJson).digest('base64');
    if (!safeEqual(expected, digest)) continue;
    let params: unknown;
    try {
      params = JSON.parse(paramsJson);
    } catch {
      return { kind: 'none' };
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return { kind: 'none' };
    const embedded: Record<string, string> = {};
    for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
      if (name === 'expires_at') {
        if (typeof value !== 'number' || value < nowSeconds) return { kind: 'none' };
        continue;
      }
      if (value === null || typeof value === 'object') continue;
      embedded[name] = String(value);
    }
    return { kind: 'search', embedded };
  }
  return { kind: 'none' };
}

/** Resolves an API key to its access: admin, search (with embedded params) or none. */
export function resolveKey(key: string | undefined, config: KeyConfig, nowSeconds = Math.floor(Date.now() / 1000)): KeyAccess {
  if (!key) return { kind: 'none' };
  if (safeEqual(key, config.adminApiKey)) return { kind: 'admin' };
  if (config.searchOnlyApiKeys.some((k) => safeEqual(key, k))) return { kind: 'search', embedded: {} };
  return scopedKeyAccess(key, config.searchOnlyApiKeys, nowSeconds);
}
