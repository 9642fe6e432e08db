import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { IslandLoadError } from './islandLoadError.js';

export interface LoadTimeoutOptions {
  /** Deadline of one request (manifest fetch, remote entry script), milliseconds. */
  timeoutMs: number;
  /** The `fetch` to call (tests pass a fake). Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** HTTP statuses worth another try. */
export function isTransientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/**
 * Puts a deadline on every request the federation runtime makes for a remote:
 * - `fetch` (the manifest): aborted through an AbortController when the deadline passes (the
 *   request is cancelled, not just ignored), and refused on a non-2xx status (the runtime would
 *   otherwise parse an error page as the manifest). This plugin owns the runtime's `fetch` hook:
 *   the runtime calls every plugin's `fetch`, so a second one would fetch twice.
 * - `createScript` (the remote entry): the runtime's script loader gives up at `timeoutMs`.
 * Failures are `IslandLoadError`s: KHS-ISLAND-003 for the deadline, KHS-ISLAND-001 otherwise.
 */
export function loadTimeoutPlugin({ timeoutMs, fetch: fetchImpl = (input, init) => globalThis.fetch(input, init) }: LoadTimeoutOptions): ModuleFederationRuntimePlugin {
  return {
    name: 'khs-load-timeout',
    async fetch(url, init) {
      const controller = new AbortController();
      const outer = init?.signal;
      const abortWithOuter = () => controller.abort(outer?.reason);
      outer?.addEventListener('abort', abortWithOuter, { once: true });
      const timer = setTimeout(() => controller.abort(new DOMException('deadline', 'TimeoutError')), timeoutMs);
      let response: Response;
      try {
        response = await fetchImpl(url, { ...init, signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted && !outer?.aborted) {
          throw new IslandLoadError('KHS-ISLAND-003', 'manifest', `no answer from ${url} within ${timeoutMs} ms (request aborted)`, { cause: error });
        }
        // fetch rejects with a TypeError on network failures: worth another try.
        throw new IslandLoadError('KHS-ISLAND-001', 'manifest', `${url} could not be fetched: ${(error as Error)?.message ?? error}`, {
          cause: error,
          transient: error instanceof TypeError,
        });
      } finally {
        clearTimeout(timer);
        outer?.removeEventListener('abort', abortWithOuter);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new IslandLoadError('KHS-ISLAND-001', 'manifest', `HTTP ${response.status} for ${url}`, {
          status: response.status,
          transient: isTransientStatus(response.status),
        });
      }
      return response;
    },
    createScript({ url, attrs }) {
      // Returning an element means the runtime applies no attributes itself: copy its own.
      const script = document.createElement('script');
      script.src = url;
      for (const [name, value] of Object.entries(attrs ?? {})) {
        if (name === 'async' || name === 'defer') (script as unknown as Record<string, unknown>)[name] = value;
        else script.setAttribute(name, String(value));
      }
      return { script, timeout: timeoutMs };
    },
  };
}
