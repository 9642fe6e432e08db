import { describe, expect, it } from 'vitest';
import { largestRemainderPercentages } from './largestRemainderPercentages.js';

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe('largestRemainderPercentages', () => {
  it('gives every position 0 when nobody voted', () => {
    expect(largestRemainderPercentages({ 1: 0, 2: 0, 3: 0 })).toEqual({ 1: 0, 2: 0, 3: 0 });
  });

  it('gives exact shares unchanged', () => {
    expect(largestRemainderPercentages({ 1: 1, 2: 1, 3: 2 })).toEqual({ 1: 25, 2: 25, 3: 50 });
    expect(largestRemainderPercentages({ 1: 7, 2: 0 })).toEqual({ 1: 100, 2: 0 });
  });

  it('gives the missing points to the largest remainders', () => {
    // 2/7 = 28.57, 2/7 = 28.57, 3/7 = 42.86 -> floors 28, 28, 42 (98); remainders .57, .57, .86
    expect(largestRemainderPercentages({ 1: 2, 2: 2, 3: 3 })).toEqual({ 1: 29, 2: 28, 3: 43 });
  });

  it('breaks equal remainders by the lower position, whatever the key order', () => {
    expect(largestRemainderPercentages({ 1: 1, 2: 1, 3: 1 })).toEqual({ 1: 34, 2: 33, 3: 33 });
    expect(largestRemainderPercentages({ 3: 1, 2: 1, 1: 1 })).toEqual({ 1: 34, 2: 33, 3: 33 });
    expect(largestRemainderPercentages({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1 })).toEqual({
      1: 17,
      2: 17,
      3: 17,
      4: 17,
      5: 16,
      6: 16,
    });
  });

  it('never gives a point to an answer without votes over one with a remainder', () => {
    expect(largestRemainderPercentages({ 1: 1, 2: 2, 3: 0 })).toEqual({ 1: 33, 2: 67, 3: 0 });
  });

  it('sums to exactly 100 for many vote distributions', () => {
    for (let a = 0; a <= 12; a++) {
      for (let b = 0; b <= 12; b++) {
        for (let c = 0; c <= 12; c++) {
          if (a + b + c === 0) continue;
          const result = largestRemainderPercentages({ 1: a, 2: b, 3: c, 4: 1 });
          expect(sum(result)).toBe(100);
          expect(Object.values(result).every((v) => Number.isInteger(v) && v >= 0 && v <= 100)).toBe(true);
        }
      }
    }
  });

  it('handles large counts exactly', () => {
    expect(largestRemainderPercentages({ 1: 1_000_000_001, 2: 2_000_000_002 })).toEqual({ 1: 33, 2: 67 });
  });
});
