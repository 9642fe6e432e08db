import { useEffect } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { InstantSearch as InstantSearchInstance, Middleware } from 'instantsearch.js';

/**
 * Disposes the surrounding InstantSearch instance when this unmounts (put it inside
 * `<InstantSearch>`). For a list hydrated under `InstantSearchSSRProvider` only: React InstantSearch
 * 7 never disposes such an instance itself (its unmount cleanup returns early when the SSR
 * context carries `ssrSearchRef`), so after the island was gone its router still answered
 * Back/Forward and wrote `/search` into the address, and its helper kept listening.
 * Synchronous, at unmount: a delayed dispose let a router write that was already due land first.
 */
export function DisposeOnUnmount(): null {
  const { addMiddlewares } = useInstantSearch();
  useEffect(() => {
    let instance: InstantSearchInstance | undefined;
    const captureInstance: Middleware = ({ instantSearchInstance }) => {
      instance = instantSearchInstance;
      return { $$type: 'khs.dispose-on-unmount', onStateChange() {}, subscribe() {}, started() {}, unsubscribe() {} };
    };
    const removeMiddleware = addMiddlewares(captureInstance);
    return () => {
      removeMiddleware();
      // `started` is false once disposed: never twice.
      if (instance?.started) instance.dispose();
    };
  }, [addMiddlewares]);
  return null;
}
