import { useEffect, useMemo, useRef } from 'react';

/** A debounced function with a way to run the pending call now or drop it. */
export interface DebouncedCallback<Args extends unknown[]> {
  (...args: Args): void;
  /** Runs the pending call at once (no-op when none is pending). */
  flush(): void;
  /** Drops the pending call. */
  cancel(): void;
  /**
   * Like a call, whose burst began before this hook saw it: it runs `delayMs` after `since`
   * (a `performance.now()` time), at once when that passed. Default: a plain call.
   */
  since(since: number, ...args: Args): void;
}

/**
 * Debounces `callback` by `delayMs`: only the last call of a burst runs. The latest `callback`
 * is always the one called; pending calls are dropped on unmount.
 */
export function useDebouncedCallback<Args extends unknown[]>(
  callback: (...args: Args) => void,
  delayMs: number,
): DebouncedCallback<Args> {
  const latest = useRef(callback);
  latest.current = callback;
  const debounced = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: Args | undefined;
    const run = () => {
      timer = undefined;
      const args = pending;
      pending = undefined;
      if (args) latest.current(...args);
    };
    const schedule = (wait: number, args: Args) => {
      pending = args;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(run, wait);
    };
    const call = ((...args: Args) => schedule(delayMs, args)) as DebouncedCallback<Args>;
    call.since = (since: number, ...args: Args) => schedule(Math.max(0, Math.min(delayMs, delayMs - (performance.now() - since))), args);
    call.flush = () => {
      if (timer !== undefined) clearTimeout(timer);
      run();
    };
    call.cancel = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    };
    return call;
  }, [delayMs]);
  useEffect(() => () => debounced.cancel(), [debounced]);
  return debounced;
}
