/**
 * When the visitor typed, for the 500 ms debounce of the search boxes (the list's binding and the
 * hydrated `SearchCombobox` follow the same rule). Framework-free, so the binding's chunk needs no React.
 *
 * The rule: a search fires `delayMs` after the *press* of the last key (the keydown's
 * `event.timeStamp`, set by the browser when the key was pressed), never counted from when a
 * handler happened to run. A long task (a chunk evaluating, hydration) holds keys in the browser's
 * queue; they arrive late but carry the times the visitor pressed them, so the gaps between them
 * stay as the visitor made them. And a debounce whose time is up waits for keys still queued
 * (`afterPendingInput`) and, after a held-back key, a moment for the next one to be handed over
 * (`HELD_BACK_KEY_GRACE_MS`): they may belong to the same window.
 */

/**
 * Property of an input event that hands text typed before a box hydrated over to it: the
 * `performance.now()` time of the last keystroke, from which the debounce counts (the list's
 * binding sets it, `SearchCombobox` reads it).
 */
export const TYPED_AT_PROPERTY = 'khsTypedAt';

/** Tells the time of the key press behind each input of one box. */
export interface KeystrokeClock {
  /** A keydown in the box: remembers its press time (`event.timeStamp`). */
  pressed(event: Pick<Event, 'timeStamp'>): void;
  /** A keyup: a later input (paste from a menu, autofill) has no key of its own. */
  released(): void;
  /**
   * The time the visitor typed the text of this input event: the press time of the key that
   * produced it, else (no key: paste, drop, autofill, IME commit) the input event's own time.
   */
  typedAt(input: Pick<Event, 'timeStamp'>): number;
}

/** A `KeystrokeClock` for one box. */
export function createKeystrokeClock(): KeystrokeClock {
  let pressedAt: number | undefined;
  return {
    pressed(event) {
      pressedAt = event.timeStamp;
    },
    released() {
      pressedAt = undefined;
    },
    typedAt(input) {
      const at = pressedAt !== undefined && pressedAt <= input.timeStamp ? pressedAt : input.timeStamp;
      // One key, one input: auto-repeat presses the key again (a new keydown) before its next input.
      pressedAt = undefined;
      return at;
    },
  };
}

/**
 * How long a debounce waits after a key that reached the page only once its own window was over
 * (a long task held it back). The keys pressed after it are on their way, but the browser hands
 * the page one key at a time (the next once the page has taken the last), so for a moment none is
 * pending (`afterPendingInput` cannot see it): a search fired then was for part of the query.
 */
export const HELD_BACK_KEY_GRACE_MS = 100;

/**
 * How long a debounce still waits for text typed at `typedAt`: `delayMs` after it, at most
 * `delayMs`; for a key held back past its window, `HELD_BACK_KEY_GRACE_MS` (at most `delayMs`).
 */
export function debounceRemaining(typedAt: number, delayMs: number, now: number = performance.now()): number {
  const remaining = typedAt + delayMs - now;
  if (remaining <= 0) return Math.min(delayMs, HELD_BACK_KEY_GRACE_MS);
  return Math.min(delayMs, remaining);
}

/** Chromium's `navigator.scheduling.isInputPending` (absent elsewhere: nothing is known to be pending). */
function inputPending(): boolean {
  const scheduling = (globalThis.navigator as (Navigator & { scheduling?: { isInputPending?: (options?: { includeContinuous?: boolean }) => boolean } }) | undefined)?.scheduling;
  return scheduling?.isInputPending?.({ includeContinuous: false }) === true;
}

/**
 * Runs `callback` once no discrete input (a key, a click) waits to be dispatched: a debounce
 * that ends right after a long task lets the keys the task held back in first (they may restart
 * it). Returns a cancel function. Where the browser cannot tell, it runs at once.
 */
export function afterPendingInput(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const attempt = () => {
    timer = undefined;
    if (cancelled) return;
    // A timer task: the browser dispatches the waiting input before it.
    if (inputPending()) timer = setTimeout(attempt, 0);
    else callback();
  };
  attempt();
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
