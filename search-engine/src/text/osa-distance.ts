/**
 * Optimal-string-alignment (restricted Damerau–Levenshtein) distance, the
 * typo measure Typesense uses: a transposition of neighbours costs one edit.
 * With `prefix`, the distance of `query` to the closest prefix of `term`.
 */
export function osaDistance(query: string, term: string, prefix = false): number {
  const n = query.length;
  const m = term.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let best = prefix ? (prev[n] as number) : Number.POSITIVE_INFINITY;
  for (let i = 1; i <= m; i++) {
    const row = new Array<number>(n + 1);
    row[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = term.charCodeAt(i - 1) === query.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j - 1] as number) + cost, (prev[j] as number) + 1, (row[j - 1] as number) + 1);
      if (i > 1 && j > 1 && term.charCodeAt(i - 1) === query.charCodeAt(j - 2) && term.charCodeAt(i - 2) === query.charCodeAt(j - 1)) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      row[j] = v;
    }
    if (prefix && (row[n] as number) < best) best = row[n] as number;
    prev2 = prev;
    prev = row;
  }
  return prefix ? best : (prev[n] as number);
}

/** Typos Typesense allows for a query word of this length (before the `num_typos` cap). */
export function typoBudget(length: number, minLen1Typo = 4, minLen2Typo = 7): number {
  if (length >= minLen2Typo) return 2;
  if (length >= minLen1Typo) return 1;
  return 0;
}
