import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * The stored documents of all collections of one search server in one growable
 * `SharedArrayBuffer`, so the search server's worker threads hold them once instead of one copy
 * of JS objects per worker (at 100k articles that copy was ~200 MB of heap per worker). Each
 * record is one document's JSON text, deflated with a preset dictionary (the first stored
 * documents' text, itself kept in the arena) once that dictionary exists: about 3.4 times smaller
 * for the generated articles, ~100 µs to store and ~30 µs to read a document.
 *
 * The writer worker owns the arena: it appends every stored document version and records where
 * (`placements`: offset and length pairs, in the order the documents were stored). A reader
 * worker is a follower: it applies the same engine call and, instead of storing the document,
 * takes the writer's placement for it, in the same order (same code, same input). The arena is
 * append-only while readers may still point at older versions, so a reader can unindex the
 * version it indexed; bytes of replaced documents are garbage until `compactInto`.
 */

/** Growable SharedArrayBuffer (ES2024, in Node 20's V8; the project's TypeScript lib predates it). */
interface GrowableSharedArrayBuffer extends SharedArrayBuffer {
  grow(newByteLength: number): void;
}
const GrowableShared = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => GrowableSharedArrayBuffer;

/** Record kinds (first byte of a record). */
const RAW = 0;
const DEFLATED = 1;
/** Header: dictionary offset and length (Int32, set once by the owner; 0 = none yet). */
const HEADER_BYTES = 16;
/** Preset dictionary size: the first documents' text up to this many bytes. */
const DICTIONARY_BYTES = 16 * 1024;
/** Documents shorter than this are kept raw (deflate would not pay for itself). */
const MIN_DEFLATE_BYTES = 256;

/** Bytes the arena may grow to (virtual reservation only; resident memory follows use). */
const MAX_ARENA_BYTES = 2 ** 32;
const INITIAL_ARENA_BYTES = 1 << 20;

export class DocumentArena {
  /** Bytes appended so far (the writer's; followers never append). */
  private used = 0;
  /** Bytes of document versions no longer pointed at by the owner. */
  private garbageBytes = 0;
  private view: Buffer;
  /** Owner: placements recorded since the last `takePlacements`; follower: placements still to use. */
  private placements: number[] = [];
  private nextPlacement = 0;
  /** Follower: a call stored more documents than the writer placed. */
  private outOfStep = false;

  private constructor(
    readonly buffer: SharedArrayBuffer,
    /** True for the writer (appends), false for readers (follow the writer's placements). */
    readonly owner: boolean,
    used: number,
    /** Owner: keep the placements for `takePlacements` (only when readers follow this arena). */
    private readonly recordPlacements = false,
  ) {
    this.view = Buffer.from(buffer);
    this.header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
    this.used = Math.max(used, HEADER_BYTES);
  }

  private readonly header: Int32Array;
  /** The preset dictionary once known (the owner builds it; readers read it from the header). */
  private dictionary: Buffer | undefined;
  /** Owner: raw text collected for the dictionary until it is full. */
  private dictionarySeed: string[] = [];
  private dictionarySeedBytes = 0;

  private currentDictionary(): Buffer | undefined {
    if (this.dictionary) return this.dictionary;
    const length = Atomics.load(this.header, 1);
    if (length === 0) return undefined;
    // Copied out of shared memory once: zlib reads it on every call.
    this.dictionary = Buffer.from(this.view.subarray(this.header[0] as number, (this.header[0] as number) + length));
    return this.dictionary;
  }

  /** Owner: once enough text was stored, fixes the dictionary and records it in the arena. */
  private seedDictionary(json: string): void {
    if (this.dictionary || this.dictionarySeedBytes >= DICTIONARY_BYTES) return;
    this.dictionarySeed.push(json);
    this.dictionarySeedBytes += json.length;
    if (this.dictionarySeedBytes < DICTIONARY_BYTES) return;
    // zlib favours the dictionary's end: the seed's text, most recent last.
    const dictionary = Buffer.from(this.dictionarySeed.join('\n')).subarray(0, DICTIONARY_BYTES);
    this.dictionarySeed = [];
    const [offset] = this.append(dictionary, RAW, false);
    this.header[0] = offset + 1;
    Atomics.store(this.header, 1, dictionary.length);
    this.dictionary = Buffer.from(dictionary);
  }

  private reserve(bytes: number): void {
    const needed = this.used + bytes;
    if (needed <= this.buffer.byteLength) return;
    let size = this.buffer.byteLength;
    // Double while small, then grow by 1/8 so spare capacity stays small.
    while (size < needed) size = size < 64 << 20 ? size * 2 : Math.ceil(size * 1.125);
    (this.buffer as GrowableSharedArrayBuffer).grow(Math.min(MAX_ARENA_BYTES, Math.ceil(size / 65536) * 65536));
    this.view = Buffer.from(this.buffer);
  }

  /** Appends one record (kind byte + bytes) and returns its place. */
  private append(bytes: Uint8Array, kind: number, record = true): [number, number] {
    this.reserve(bytes.length + 1);
    const offset = this.used;
    this.view[offset] = kind;
    this.view.set(bytes, offset + 1);
    this.used += bytes.length + 1;
    if (record && this.recordPlacements) this.placements.push(offset, bytes.length + 1);
    return [offset, bytes.length + 1];
  }

  /**
   * A new arena its caller owns (the writer worker, or an engine outside a pool).
   * @param recordPlacements keep each call's placements for readers (`takePlacements`). Default false.
   */
  static create(recordPlacements = false): DocumentArena {
    return new DocumentArena(new GrowableShared(INITIAL_ARENA_BYTES, { maxByteLength: MAX_ARENA_BYTES }), true, 0, recordPlacements);
  }

  /** A reader's view of the writer's arena. */
  static follow(buffer: SharedArrayBuffer): DocumentArena {
    return new DocumentArena(buffer, false, 0);
  }

  /** Bytes in use (owner) — live documents plus garbage. */
  get usedBytes(): number {
    return this.used;
  }

  get garbage(): number {
    return this.garbageBytes;
  }

  /**
   * Stores one document's JSON text and returns its place as `[offset, length]`. The owner
   * appends it; a follower takes the owner's next placement.
   */
  store(json: string): [number, number] {
    if (!this.owner) {
      const offset = this.placements[this.nextPlacement];
      const length = this.placements[this.nextPlacement + 1];
      if (offset === undefined || length === undefined) {
        this.outOfStep = true;
        throw new Error('document arena: a reader stored a document the writer did not place');
      }
      this.nextPlacement += 2;
      return [offset, length];
    }
    this.seedDictionary(json);
    const dictionary = this.dictionary;
    if (!dictionary || json.length < MIN_DEFLATE_BYTES) return this.append(Buffer.from(json, 'utf8'), RAW);
    return this.append(deflateRawSync(json, { dictionary }), DEFLATED);
  }

  /**
   * Owner: true when replaced document versions take more than half the arena and at least
   * `minimumGarbageBytes` (default 64 MiB); then `compacted` should replace it.
   */
  needsCompaction(minimumGarbageBytes = 64 * 1024 * 1024): boolean {
    return this.owner && this.garbageBytes >= minimumGarbageBytes && this.garbageBytes * 2 > this.used;
  }

  /**
   * Owner: a new arena with the same dictionary, into which `copyRecord` moves live records
   * (as stored, without decoding). Readers keep the old arena until they are rebuilt from the new one.
   */
  compacted(): DocumentArena {
    const next = DocumentArena.create(this.recordPlacements);
    const dictionary = this.currentDictionary();
    if (dictionary) {
      const [offset] = next.append(dictionary, RAW, false);
      next.header[0] = offset + 1;
      Atomics.store(next.header, 1, dictionary.length);
      next.dictionary = dictionary;
    } else {
      next.dictionarySeed = [...this.dictionarySeed];
      next.dictionarySeedBytes = this.dictionarySeedBytes;
    }
    return next;
  }

  /** Owner: copies one record of `from` (same dictionary) into this arena; returns its new place. */
  copyRecord(from: DocumentArena, offset: number, length: number): [number, number] {
    const [at] = this.append(from.view.subarray(offset + 1, offset + length), from.view[offset] as number, false);
    return [at, length];
  }

  /** Marks a stored version as no longer used by the owner (for compaction decisions). */
  release(length: number): void {
    if (this.owner) this.garbageBytes += length;
  }

  /** The JSON text at a place. */
  read(offset: number, length: number): string {
    if (offset + length > this.view.length) this.view = Buffer.from(this.buffer);
    if (this.view[offset] === RAW) return this.view.toString('utf8', offset + 1, offset + length);
    // zlib may not read shared memory directly: copy the record out first.
    const record = Buffer.from(this.view.subarray(offset + 1, offset + length));
    return inflateRawSync(record, { dictionary: this.currentDictionary() }).toString('utf8');
  }

  /** Owner: the placements recorded since the last call (sent to the readers with the same call). */
  takePlacements(): number[] {
    const taken = this.placements;
    this.placements = [];
    return taken;
  }

  /** Follower: the writer's placements for the call about to be applied. */
  follow(placements: readonly number[]): void {
    this.placements = [...placements];
    this.nextPlacement = 0;
    this.outOfStep = false;
  }

  /** Follower: true when every placement of the last call was used (a check that the reader stayed in step). */
  get followedAll(): boolean {
    return !this.outOfStep && this.nextPlacement === this.placements.length;
  }
}
