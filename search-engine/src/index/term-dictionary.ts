/**
 * The term dictionary of a collection: folded word → term id, document
 * frequency per term, and a lazily sorted view that serves prefix expansion
 * and typo candidates (a Damerau (OSA) Levenshtein walk over the sorted
 * terms, which share DP rows along common prefixes like a trie would).
 */

/** A term that matched a query word, with the number of typos it costs. */
export interface TermCandidate {
  termId: number;
  cost: number;
}

/** Longest query word for which typo variants are searched. */
const MAX_TYPO_WORD_LENGTH = 40;

export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private frequencies = new Int32Array(1024);
  private sorted: string[] | null = null;
  private readonly prefixCache = new Map<string, number[]>();
  /** Set when frequencies changed; the prefix cache is dropped lazily on the next read. */
  private cacheStale = false;

  /** Number of distinct terms ever seen. */
  get size(): number {
    return this.terms.length;
  }

  /** Id of a term, creating it if new. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
      if (id >= this.frequencies.length) {
        const grown = new Int32Array(this.frequencies.length * 2);
        grown.set(this.frequencies);
        this.frequencies = grown;
      }
      this.sorted = null;
    }
    return id;
  }

  /** Id of an existing term or undefined. */
  lookup(term: string): number | undefined {
    return this.ids.get(term);
  }

  termOf(id: number): string {
    return this.terms[id] ?? '';
  }

  /** Number of documents containing the term (any field). */
  frequency(id: number): number {
    return this.frequencies[id] ?? 0;
  }

  /** Records that one more (delta=1) or one fewer (delta=-1) document contains the term. */
  adjustFrequency(id: number, delta: number): void {
    this.frequencies[id] = (this.frequencies[id] ?? 0) + delta;
    this.cacheStale = true;
  }

  private sortedTerms(): string[] {
    if (!this.sorted) {
      this.sorted = this.terms.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      this.prefixCache.clear();
    }
    return this.sorted;
  }

  /** Index of the first sorted term that is >= value. */
  private lowerBound(sorted: string[], value: string): number {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as string) < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index after the last sorted term that starts with prefix. */
  private prefixEnd(sorted: string[], prefix: string): number {
    return this.lowerBound(sorted, prefix + '\uffff');
  }

  /**
   * The `limit` most frequent live terms that start with `prefix` (the term
   * itself included), like Typesense's `max_candidates` expansion.
   */
  prefixExpansions(prefix: string, limit: number): number[] {
    if (this.cacheStale) {
      this.prefixCache.clear();
      this.cacheStale = false;
    }
    const key = `${limit}\u0000${prefix}`;
    const cached = this.prefixCache.get(key);
    if (cached) return cached;
    const sorted = this.sortedTerms();
    const from = this.lowerBound(sorted, prefix);
    const to = this.prefixEnd(sorted, prefix);
    const best: number[] = [];
    for (let i = from; i < to; i++) {
      const id = this.ids.get(sorted[i] as string) as number;
      if (this.frequency(id) <= 0) continue;
      insertTopByFrequency(best, id, limit, (t) => this.frequency(t));
    }
    if (this.prefixCache.size > 5000) this.prefixCache.clear();
    this.prefixCache.set(key, best);
    return best;
  }

  /**
   * Live terms within `maxCost` OSA-Damerau edits of `word` (whole term), or,
   * with `prefix`, terms that have a prefix within `maxCost` edits of `word`.
   * Only candidates with cost >= minCost are returned; at most `limit` of them,
   * cheapest first, then most frequent.
   */
  typoCandidates(word: string, maxCost: number, minCost: number, prefix: boolean, limit: number): TermCandidate[] {
    // Very long words cannot be typos of indexed terms in practice, and the
    // DP walk is O(terms × length): refuse them instead of burning the CPU.
    if (word.length > MAX_TYPO_WORD_LENGTH || maxCost <= 0) return [];
    const sorted = this.sortedTerms();
    const q = word;
    const qLen = q.length;
    const width = qLen + 1;
    // rows[d] = DP row after consuming d chars of the term.
    const maxDepth = 64;
    const rows = new Int32Array((maxDepth + 1) * width);
    for (let j = 0; j <= qLen; j++) rows[j] = j;
    const found = new Map<number, number>();
    let prev = '';
    let validDepth = 0; // rows[0..validDepth] are valid for prefix prev[0..validDepth)
    let i = 0;
    while (i < sorted.length) {
      const term = sorted[i] as string;
      let lcp = 0;
      const lim = Math.min(prev.length, term.length, validDepth);
      while (lcp < lim && prev.charCodeAt(lcp) === term.charCodeAt(lcp)) lcp++;
      let depth = lcp;
      let bestPrefixCost = Number.POSITIVE_INFINITY;
      // Recompute the prefix costs of shared rows (needed for prefix mode).
      if (prefix) {
        for (let d = 0; d <= lcp; d++) {
          const c = rows[d * width + qLen] as number;
          if (c < bestPrefixCost) bestPrefixCost = c;
        }
      }
      let pruned = false;
      const termLen = Math.min(term.length, maxDepth);
      while (depth < termLen) {
        const d = depth + 1;
        const ch = term.charCodeAt(depth);
        const base = d * width;
        const prevBase = base - width;
        rows[base] = d;
        let rowMin = d;
        for (let j = 1; j <= qLen; j++) {
          const substitution = (rows[prevBase + j - 1] as number) + (q.charCodeAt(j - 1) === ch ? 0 : 1);
          const deletion = (rows[prevBase + j] as number) + 1;
          const insertion = (rows[base + j - 1] as number) + 1;
          let v = substitution < deletion ? substitution : deletion;
          if (insertion < v) v = insertion;
          if (d > 1 && j > 1 && q.charCodeAt(j - 1) === term.charCodeAt(depth - 1) && q.charCodeAt(j - 2) === ch) {
            const transposition = (rows[base - 2 * width + j - 2] as number) + 1;
            if (transposition < v) v = transposition;
          }
          rows[base + j] = v;
          if (v < rowMin) rowMin = v;
        }
        depth = d;
        if (prefix) {
          const c = rows[base + qLen] as number;
          if (c < bestPrefixCost) bestPrefixCost = c;
        }
        if (rowMin > maxCost) {
          pruned = true;
          break;
        }
      }
      prev = term;
      validDepth = depth;
      const cost = prefix ? bestPrefixCost : pruned ? Number.POSITIVE_INFINITY : (rows[depth * width + qLen] as number);
      if (cost <= maxCost && cost >= minCost) {
        const id = this.ids.get(term) as number;
        if (this.frequency(id) > 0) found.set(id, cost);
      }
      if (pruned && !(prefix && bestPrefixCost <= maxCost)) {
        // Every term sharing term[0..depth) is out of reach: jump past them.
        const next = this.prefixEnd(sorted, term.slice(0, depth));
        i = next > i ? next : i + 1;
        validDepth = depth - 1;
      } else {
        i++;
      }
    }
    const candidates = [...found].map(([termId, cost]) => ({ termId, cost }));
    candidates.sort((a, b) => a.cost - b.cost || this.frequency(b.termId) - this.frequency(a.termId));
    return candidates.slice(0, limit);
  }
}

/** Keeps `best` as the top `limit` ids by frequency (descending). */
function insertTopByFrequency(best: number[], id: number, limit: number, frequency: (id: number) => number): void {
  const f = frequency(id);
  if (best.length === limit && frequency(best[best.length - 1] as number) >= f) return;
  let pos = best.length;
  while (pos > 0 && frequency(best[pos - 1] as number) < f) pos--;
  best.splice(pos, 0, id);
  if (best.length > limit) best.pop();
}
