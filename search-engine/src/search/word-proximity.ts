/** Typesense's proximity window (include/match_score.h `WINDOW_SIZE`): at most this many query words count as "in the window". */
export const WINDOW_SIZE = 10;

/** Words of the query found close together in one field value, and how far apart. */
export interface ProximityMatch {
  wordsPresent: number;
  distance: number;
}

/**
 * Typesense's `Match` over sorted positions per query word (one list per word present):
 * slides a window over the smallest offsets and keeps the one with the most words within
 * `WINDOW_SIZE` of its smallest offset, then the smallest spread (sum of gaps).
 */
export function proximityOf(positions: number[][]): ProximityMatch {
  const lists = positions.slice(0, WINDOW_SIZE).filter((list) => list.length > 0);
  if (lists.length <= 1) return { wordsPresent: lists.length, distance: 0 };
  const next = lists.map(() => 1);
  const window = lists.map((list, word) => ({ word, offset: list[0] as number }));
  let bestCount = 1;
  let bestDisplacement = Number.POSITIVE_INFINITY;
  let previousMin = -1;
  while (window.length > 1) {
    window.sort((a, b) => b.offset - a.offset);
    const minOffset = (window[window.length - 1] as { offset: number }).offset;
    if (minOffset < previousMin) break;
    previousMin = minOffset;
    let displacement = 0;
    let count = 0;
    for (let i = 0; i < window.length; i++) {
      const current = window[i] as { offset: number };
      if (current.offset - minOffset <= WINDOW_SIZE) {
        const following = i === window.length - 1 ? current.offset : (window[i + 1] as { offset: number }).offset;
        displacement += current.offset - following;
        count++;
      }
    }
    if (count > bestCount || (count === bestCount && displacement < bestDisplacement)) {
      bestCount = count;
      bestDisplacement = displacement;
    }
    if (bestCount === lists.length && bestDisplacement === window.length - 1) break;
    const smallest = window.pop() as { word: number; offset: number };
    const list = lists[smallest.word] as number[];
    const index = next[smallest.word] as number;
    if (index >= list.length) continue;
    next[smallest.word] = index + 1;
    window.push({ word: smallest.word, offset: list[index] as number });
  }
  return { wordsPresent: bestCount, distance: Number.isFinite(bestDisplacement) ? Math.min(bestDisplacement, 100) : 0 };
}
