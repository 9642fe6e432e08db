/**
 * A small seeded pseudo-random generator (mulberry32). Deterministic across platforms, which is the
 * point: the same seed must give the same generated corpus in every benchmark run.
 */
export interface Random {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [0, max). */
  int(max: number): number;
  /** Integer in [min, max] (inclusive). */
  between(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** `count` distinct elements of `items` (all of them when count >= length), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
}

/** Creates a {@link Random} from a 32-bit integer seed. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number): number => Math.floor(next() * max);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('Random.pick: empty list');
      return items[int(items.length)] as T;
    },
    chance: (p) => next() < p,
    sample<T>(items: readonly T[], count: number): T[] {
      const copy = items.slice();
      const n = Math.min(count, copy.length);
      // Partial Fisher-Yates: only the first n slots are shuffled.
      for (let i = 0; i < n; i++) {
        const j = i + int(copy.length - i);
        const tmp = copy[i] as T;
        copy[i] = copy[j] as T;
        copy[j] = tmp;
      }
      return copy.slice(0, n);
    },
  };
}
