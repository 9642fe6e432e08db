// The debounce rule of the search boxes (issue 26), with synthetic times: a keystroke counts from
// its press; a debounce whose time is up lets input waiting for dispatch go first.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPendingInput, createKeystrokeClock, debounceRemaining, HELD_BACK_KEY_GRACE_MS } from './typedAt.js';

describe('createKeystrokeClock', () => {
  it('times an input by the press of the key that typed it, however late the input is handled', () => {
    const clock = createKeystrokeClock();
    clock.pressed({ timeStamp: 100 });
    expect(clock.typedAt({ timeStamp: 1400 })).toBe(100);
  });

  it('times text with no key of its own (a paste after the key was released, a second input) by its input event', () => {
    const clock = createKeystrokeClock();
    clock.pressed({ timeStamp: 100 });
    clock.released();
    expect(clock.typedAt({ timeStamp: 900 })).toBe(900);
    clock.pressed({ timeStamp: 1000 });
    expect(clock.typedAt({ timeStamp: 1010 })).toBe(1000);
    expect(clock.typedAt({ timeStamp: 1500 })).toBe(1500);
  });

  it('never takes a press time after its input (clocks that disagree)', () => {
    const clock = createKeystrokeClock();
    clock.pressed({ timeStamp: 2000 });
    expect(clock.typedAt({ timeStamp: 1990 })).toBe(1990);
  });
});

describe('debounceRemaining', () => {
  it('is what is left of the window after the press, at most the whole window', () => {
    expect(debounceRemaining(1000, 500, 1200)).toBe(300);
    expect(debounceRemaining(1000, 500, 1499)).toBe(1);
    expect(debounceRemaining(2000, 500, 1000)).toBe(500);
  });

  it('after a key held back past its window, a short grace for the next key on its way', () => {
    expect(debounceRemaining(1000, 500, 1500)).toBe(HELD_BACK_KEY_GRACE_MS);
    expect(debounceRemaining(1000, 500, 4000)).toBe(HELD_BACK_KEY_GRACE_MS);
    expect(debounceRemaining(1000, 50, 4000)).toBe(50);
  });
});

describe('afterPendingInput', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const pendingFor = (checks: number) => {
    let left = checks;
    vi.stubGlobal('navigator', { scheduling: { isInputPending: () => left-- > 0 } });
  };

  it('runs at once when no input waits (or the browser cannot tell)', () => {
    const callback = vi.fn();
    afterPendingInput(callback);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('waits while input waits for dispatch, then runs once', () => {
    vi.useFakeTimers();
    pendingFor(3);
    const callback = vi.fn();
    afterPendingInput(callback);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    vi.advanceTimersByTime(0);
    expect(callback).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('cancelled while waiting, it never runs', () => {
    vi.useFakeTimers();
    pendingFor(2);
    const callback = vi.fn();
    const cancel = afterPendingInput(callback);
    cancel();
    vi.runAllTimers();
    expect(callback).not.toHaveBeenCalled();
  });
});
