import { useEffect, useState } from 'react';

/**
 * False in the server render and in the browser's first render (so hydration matches), true once
 * the island runs in the browser. Controls that need scripts stay disabled until then: without
 * scripts, or when the remote's browser code fails, the server HTML shows them disabled instead of
 * clickable and dead.
 */
export function useIslandReady(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return ready;
}
