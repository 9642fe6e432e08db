/**
 * A sorted list of document sequence ids kept in a growable Int32Array
 * (4 bytes per entry instead of a JS array's 8+).
 */
export class PostingList {
  ids: Int32Array;
  length = 0;

  constructor(capacity = 4) {
    this.ids = new Int32Array(capacity);
  }

  /** Adds a sequence id, keeping the list sorted; ignores duplicates. */
  add(seq: number): void {
    const n = this.length;
    if (n === this.ids.length) {
      const grown = new Int32Array(n < 64 ? n * 2 : Math.ceil(n * 1.5));
      grown.set(this.ids);
      this.ids = grown;
    }
    // Appends are the common case: sequence ids grow as documents arrive.
    if (n === 0 || (this.ids[n - 1] as number) < seq) {
      this.ids[n] = seq;
      this.length = n + 1;
      return;
    }
    const pos = this.search(seq);
    if (pos < n && this.ids[pos] === seq) return;
    this.ids.copyWithin(pos + 1, pos, n);
    this.ids[pos] = seq;
    this.length = n + 1;
  }

  /** Removes a sequence id if present. */
  remove(seq: number): void {
    const pos = this.search(seq);
    if (pos < this.length && this.ids[pos] === seq) {
      this.ids.copyWithin(pos, pos + 1, this.length);
      this.length--;
    }
  }

  /** Shrinks the backing array to the used length (after bulk loads). */
  compact(): void {
    if (this.ids.length > this.length + 8) this.ids = this.ids.slice(0, this.length);
  }

  private search(seq: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.ids[mid] as number) < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
