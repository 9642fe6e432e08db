import type { IslandRenderResult } from 'contracts';

export interface ServerRenderCacheOptions {
  /** How long a render is reused, ms. */
  ttlMs: number;
  /** Entries kept at most (oldest dropped first). */
  maxEntries: number;
  /** Renders running at once at most; past that a render fails at once (the island then renders in the browser). */
  maxInFlight: number;
  now?: () => number;
}

/**
 * Bounds what server renders of one island cost the shell's process: identical renders (same
 * address and props) share one run and its result for `ttlMs` (micro-caching; the answers behind
 * it are cached for longer by the search client already), and at most `maxInFlight` different
 * ones run at once, so a burst of distinct queries degrades to browser rendering instead of
 * slowing every page of the site.
 */
export function createServerRenderCache(options: ServerRenderCacheOptions) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, { at: number; result: Promise<IslandRenderResult> }>();
  let inFlight = 0;
  return {
    render(key: string, run: () => Promise<IslandRenderResult>): Promise<IslandRenderResult> {
      const cached = entries.get(key);
      if (cached && now() - cached.at < options.ttlMs) return cached.result;
      if (inFlight >= options.maxInFlight) {
        return Promise.reject(new Error(`${inFlight} server renders already running; this one is left to the browser`));
      }
      inFlight += 1;
      const result = run().finally(() => {
        inFlight -= 1;
      });
      entries.delete(key);
      entries.set(key, { at: now(), result });
      // A failed render is not reused.
      result.catch(() => {
        if (entries.get(key)?.result === result) entries.delete(key);
      });
      while (entries.size > options.maxEntries) entries.delete(entries.keys().next().value!);
      return result;
    },
    get inFlight() {
      return inFlight;
    },
  };
}
