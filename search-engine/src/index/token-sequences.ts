/**
 * Word positions of one text field, stored compactly for word proximity: per document the
 * field's words as a sequence of term ids, varint-encoded (id + 1; 0 separates the
 * elements of a string[] value) in one shared byte pool. A rewritten document appends a
 * new sequence; the old bytes are reclaimed when `compact()` runs (after bulk loads, or
 * by itself once more than half the pool is garbage).
 */
export class TokenSequences {
  private pool = new Uint8Array(1 << 16);
  private used = 0;
  private garbage = 0;
  private start = new Uint32Array(1024);
  private length = new Uint32Array(1024);

  /** Bytes held (pool capacity plus the per-document offsets), for memory reports. */
  get byteSize(): number {
    return this.pool.byteLength + this.start.byteLength + this.length.byteLength;
  }

  /** Stores the term ids of a document's field (`-1` = element separator). */
  set(seq: number, termIds: readonly number[]): void {
    this.clear(seq);
    if (seq >= this.start.length) {
      let size = this.start.length;
      while (size <= seq) size *= 2;
      const start = new Uint32Array(size);
      start.set(this.start);
      this.start = start;
      const length = new Uint32Array(size);
      length.set(this.length);
      this.length = length;
    }
    // At most 5 bytes per id.
    this.reserve(termIds.length * 5);
    const begin = this.used;
    let at = begin;
    const pool = this.pool;
    for (const termId of termIds) {
      let value = termId + 1;
      while (value >= 0x80) {
        pool[at++] = (value & 0x7f) | 0x80;
        value >>>= 7;
      }
      pool[at++] = value;
    }
    this.used = at;
    this.start[seq] = begin;
    this.length[seq] = at - begin;
  }

  clear(seq: number): void {
    if (seq >= this.length.length) return;
    this.garbage += this.length[seq] as number;
    this.length[seq] = 0;
    if (this.garbage > 1 << 20 && this.garbage > this.used / 2) this.compact();
  }

  /** Calls `visit(termId, position, element)` for each word of the document's field, in order. */
  forEach(seq: number, visit: (termId: number, position: number, element: number) => void): void {
    if (seq >= this.length.length) return;
    const pool = this.pool;
    let at = this.start[seq] as number;
    const end = at + (this.length[seq] as number);
    let position = 0;
    let element = 0;
    while (at < end) {
      let value = 0;
      let shift = 0;
      let byte: number;
      do {
        byte = pool[at++] as number;
        value |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      if (value === 0) {
        element++;
        position = 0;
        continue;
      }
      visit(value - 1, position++, element);
    }
  }

  /**
   * Positions of wanted terms in a document's field: `wanted[t]` is the term id of query
   * word t (or -1); `out[element][t]` receives the positions (lists created on demand).
   * The hot path of word proximity: no callback, plain varint decoding.
   */
  collectPositions(seq: number, wanted: Int32Array, count: number, out: number[][][]): void {
    if (seq >= this.length.length) return;
    const pool = this.pool;
    let at = this.start[seq] as number;
    const end = at + (this.length[seq] as number);
    let position = 0;
    let element = 0;
    while (at < end) {
      let value = pool[at++] as number;
      if (value >= 0x80) {
        value &= 0x7f;
        let shift = 7;
        let byte: number;
        do {
          byte = pool[at++] as number;
          value |= (byte & 0x7f) << shift;
          shift += 7;
        } while (byte & 0x80);
      }
      if (value === 0) {
        element++;
        position = 0;
        continue;
      }
      const termId = value - 1;
      for (let t = 0; t < count; t++) {
        if (wanted[t] !== termId) continue;
        let lists = out[element];
        if (!lists) {
          lists = [];
          out[element] = lists;
        }
        (lists[t] ??= []).push(position);
      }
      position++;
    }
  }

  /** Rewrites the pool without garbage and trims spare capacity. */
  compact(): void {
    const count = this.start.length;
    let total = 0;
    for (let seq = 0; seq < count; seq++) total += this.length[seq] as number;
    const pool = new Uint8Array(Math.max(total, 1024));
    let at = 0;
    for (let seq = 0; seq < count; seq++) {
      const length = this.length[seq] as number;
      if (length === 0) continue;
      const begin = this.start[seq] as number;
      pool.set(this.pool.subarray(begin, begin + length), at);
      this.start[seq] = at;
      at += length;
    }
    this.pool = pool;
    this.used = at;
    this.garbage = 0;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.pool.length) return;
    let size = this.pool.length;
    // Small pools double; large ones grow by 1/8 so spare capacity stays small (a 40 MB pool
    // would otherwise sit in a 64 MB buffer).
    while (this.used + bytes > size) size = size < 1 << 20 ? size * 2 : Math.ceil(size * 1.125);
    const pool = new Uint8Array(size);
    pool.set(this.pool.subarray(0, this.used));
    this.pool = pool;
  }
}
