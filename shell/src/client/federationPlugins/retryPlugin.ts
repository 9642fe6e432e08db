import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { IslandLoadError } from './islandLoadError.js';

export interface RetryOptions {
  /** Further tries after a transient failure. Default 2. */
  retries?: number;
  /** Wait before the first retry, milliseconds; doubled each time (with ±25 % jitter). Default 300. */
  backoffMs?: number;
  /** Waits `ms` (tests pass fake timers). */
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ x < 1 (tests pass a fixed one). Default Math.random. */
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wait before retry number `attempt` (1-based): `backoffMs · 2^(attempt−1)`, ±25 % so pages do not retry in step. */
export function backoffDelay(attempt: number, backoffMs: number, random: () => number): number {
  return Math.round(backoffMs * 2 ** (attempt - 1) * (0.75 + random() * 0.5));
}

/** Whether a manifest failure is worth another try: network errors and HTTP 5xx/408/429, not a 404 or a deadline. */
function isTransient(error: unknown): boolean {
  return error instanceof IslandLoadError && error.transient;
}

/**
 * Retries transient failures with exponential back-off, through the runtime's recovery hooks (so
 * every try goes through the other plugins again, deadline included):
 * - the manifest (`errorLoadRemote` at `afterResolve`): refetched through the runtime's `fetch`
 *   hook while the failure is transient (network error, HTTP 5xx/408/429); the parsed manifest
 *   recovers the load. A 404, a bad manifest or a deadline are not retried.
 * - the remote entry script (`loadEntryError`): loaded again. The runtime does not say why a
 *   script failed (a script element only reports "error"), so a failed or timed-out entry is retried.
 * Written here rather than taken from @module-federation/retry-plugin: the registry has no
 * release of it for our runtime (2.9.2; only 0.13.0 and 0.17.1, which bring a second, older SDK),
 * and its own `fetch` hook would fetch every manifest twice next to our deadline plugin's.
 */
export function retryPlugin({ retries = 2, backoffMs = 300, sleep = defaultSleep, random = Math.random }: RetryOptions = {}): ModuleFederationRuntimePlugin {
  return {
    name: 'khs-retry',
    async errorLoadRemote({ id, error, lifecycle, remote, origin }) {
      if (lifecycle !== 'afterResolve' || !isTransient(error)) return undefined;
      let last: unknown = error;
      for (let attempt = 1; attempt <= retries && isTransient(last); attempt += 1) {
        await sleep(backoffDelay(attempt, backoffMs, random));
        try {
          let response = await origin.loaderHook.lifecycle.fetch.emit(id, {}, remote);
          if (!(response instanceof Response)) response = await fetch(id, {});
          return await response.json();
        } catch (retryError) {
          last = retryError;
        }
      }
      return undefined;
    },
    // Typed by the runtime as resolving to a promise of the exports; resolving to the exports is the same to `await`.
    loadEntryError: (async ({ getRemoteEntry, origin, remoteInfo, remoteEntryExports, globalLoading, uniqueKey }) => {
      for (let attempt = 1; attempt <= retries; attempt += 1) {
        await sleep(backoffDelay(attempt, backoffMs, random));
        // The failed load is still registered under this key: a new one starts only without it.
        delete globalLoading[uniqueKey];
        try {
          const exports = await getRemoteEntry({ origin, remoteInfo, remoteEntryExports });
          if (exports) return exports;
        } catch {
          // try again, or give up below
        }
      }
      return undefined;
    }) as NonNullable<ModuleFederationRuntimePlugin['loadEntryError']>,
  };
}
