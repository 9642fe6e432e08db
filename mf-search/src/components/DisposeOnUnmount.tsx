import { useEffect } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { InstantSearch as InstantSearchInstance, Middleware } from 'instantsearch.js';

/** Mounted `DisposeOnUnmount`s per instance: React InstantSearch keeps one instance across remounts. */
const mountsOf = new WeakMap<InstantSearchInstance, number>();

/**
 * Disposes the surrounding InstantSearch instance when this unmounts for good (put it inside
 * `<InstantSearch>`). For a list hydrated under `InstantSearchSSRProvider` only: React InstantSearch
 * 7 never disposes such an instance itself (its unmount cleanup returns early when the SSR
 * context carries `ssrSearchRef`), so after the island was gone its router still answered
 * Back/Forward and wrote `/search` into the address, and its helper kept listening.
 * The same `ssrSearchRef` makes a remount of the list reuse the instance (React may unmount and
 * mount effects again without the island going away): the dispose waits one task and is dropped
 * when the list mounted again meanwhile (a disposed, reused instance searched nothing). Disposing
 * clears the router's pending address write, so one task later is still before it lands.
 */
export function DisposeOnUnmount(): null {
  const { addMiddlewares } = useInstantSearch();
  useEffect(() => {
    let instance: InstantSearchInstance | undefined;
    const captureInstance: Middleware = ({ instantSearchInstance }) => {
      instance = instantSearchInstance;
      mountsOf.set(instance, (mountsOf.get(instance) ?? 0) + 1);
      return { $$type: 'khs.dispose-on-unmount', onStateChange() {}, subscribe() {}, started() {}, unsubscribe() {} };
    };
    const removeMiddleware = addMiddlewares(captureInstance);
    return () => {
      removeMiddleware();
      const unmounted = instance;
      if (!unmounted) return;
      mountsOf.set(unmounted, Math.max(0, (mountsOf.get(unmounted) ?? 1) - 1));
      setTimeout(() => {
        // `started` is false once disposed: never twice.
        if ((mountsOf.get(unmounted) ?? 0) === 0 && unmounted.started) unmounted.dispose();
      });
    };
  }, [addMiddlewares]);
  return null;
}
