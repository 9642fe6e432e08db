import { describe, expect, it, vi } from 'vitest';
import { startRevalidationTimer } from './revalidationTimer.js';

describe('startRevalidationTimer', () => {
  it('polls every interval, never two at once, and stops', async () => {
    vi.useFakeTimers();
    try {
      let started = 0;
      let finish: () => void = () => {};
      const stop = startRevalidationTimer(() => {
        started += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      }, 100);
      await vi.advanceTimersByTimeAsync(350);
      // The first poll still runs: the next ticks do not start another.
      expect(started).toBe(1);
      finish();
      await vi.advanceTimersByTimeAsync(100);
      expect(started).toBe(2);
      finish();
      stop();
      await vi.advanceTimersByTimeAsync(1000);
      expect(started).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
