import { useEffect, useMemo, useRef } from 'react';
import { afterPendingInput, debounceRemaining } from '../autocomplete/typedAt.js';

/** A debounced function with a way to run the pending call now or drop it. */
export interface DebouncedCallback<Args extends unknown[]> {
  (...args: Args): void;
  /** Runs the pending call at once (no-op when none is pending). */
  flush(): void;
  /** Drops the pending call. */
  cancel(): void;
  /**
   * Like a call, for text typed at `since` (a `performance.now()` time: the key's press,
   * `autocomplete/typedAt.ts`): it runs `delayMs` after `since`, at once when that passed.
   */
  since(since: number, ...args: Args): void;
}

/**
 * Debounces `callback` by `delayMs`: only the last call of a burst runs. The latest `callback`
 * is always the one called; pending calls are dropped on unmount. When the time is up it still
 * lets input waiting for dispatch go first (`afterPendingInput`): a key held back by a long task
 * calls again and starts a new window.
 */
export function useDebouncedCallback<Args extends unknown[]>(
  callback: (...args: Args) => void,
  delayMs: number,
): DebouncedCallback<Args> {
  const latest = useRef(callback);
  latest.current = callback;
  const debounced = useMemo(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWaitingForInput: (() => void) | undefined;
    let pending: Args | undefined;
    const stop = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      stopWaitingForInput?.();
      stopWaitingForInput = undefined;
    };
    const run = () => {
      stop();
      const args = pending;
      pending = undefined;
      if (args) latest.current(...args);
    };
    const schedule = (wait: number, args: Args) => {
      pending = args;
      stop();
      // Time is up: keys a long task held back go first (they may start a new window).
      timer = setTimeout(() => {
        timer = undefined;
        stopWaitingForInput = afterPendingInput(run);
      }, wait);
    };
    const call = ((...args: Args) => schedule(delayMs, args)) as DebouncedCallback<Args>;
    call.since = (since: number, ...args: Args) => schedule(debounceRemaining(since, delayMs), args);
    call.flush = run;
    call.cancel = () => {
      stop();
      pending = undefined;
    };
    return call;
  }, [delayMs]);
  useEffect(() => () => debounced.cancel(), [debounced]);
  return debounced;
}
