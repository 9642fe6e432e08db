import { ApiError } from '../api-error.js';
import { type CollectionSchema, type FieldDefinition, isArrayType, isNumericType, isStringType } from '../schema/collection-schema.js';
import { flattenDocument } from '../schema/nested-fields.js';
import { coerceField, documentIdOf, type StoredDocument, validateDocument } from '../schema/validate-document.js';
import { foldedKey, tokenize } from '../text/tokenize.js';
import type { SetRegistry } from '../sets/set-registry.js';
import { DocumentArena } from './document-arena.js';
import { PostingList } from './posting-list.js';
import { TokenSequences } from './token-sequences.js';
import { TermDictionary } from './term-dictionary.js';

/** Import actions Typesense supports. */
export type WriteAction = 'create' | 'upsert' | 'update' | 'emplace';

/** Inverted index of one searchable string field. */
export interface TextFieldIndex {
  field: FieldDefinition;
  /** Posting list per term id. */
  postings: (PostingList | undefined)[];
  /**
   * Per sequence id: number of words in the value (the shortest element for arrays), capped at
   * 65535; lets ranking spot a field that consists of exactly the query words.
   */
  wordCounts: Uint16Array;
  /** Each document's words in order (term ids), for word proximity. */
  sequences: TokenSequences;
}

/** Distinct values of a string facet field and, per document, the ids of its values. */
export interface StringFacetColumn {
  field: FieldDefinition;
  values: string[];
  /** Folded form of each value (for exact filters). */
  foldedValues: string[];
  valueIds: Map<string, number>;
  /** Per sequence id: ids of the document's values. */
  perDocument: (number[] | undefined)[];
  /** Per value id: the documents holding the value (for exact filters). */
  valueDocuments: PostingList[];
}

/** Decoded documents kept per collection (hits and highlights read a document several times). */
const DECODED_CACHE_SIZE = 128;

/**
 * One collection: its schema, stored documents (by internal sequence id, as JSON text in the
 * server's shared `DocumentArena`; the few values filters, facets and sorting scan kept per
 * document beside the index),
 * the term dictionary with per-field posting lists, and per-document columns
 * for facets and sorting. All writes go through `write`/`delete`.
 */
export class Collection {
  /** Per sequence id: where its stored document's JSON is in the arena (length 0 = none). */
  private documentOffsets = new Float64Array(1024);
  private documentLengths = new Int32Array(1024);
  private readonly decoded = new Map<number, StoredDocument>();
  /**
   * Per sequence id: the document's values of fields that filters, facets, sorting and grouping
   * scan (indexed fields that are facets, sortable or not strings), so scans never decode JSON.
   */
  private readonly scanValues: (Record<string, unknown> | undefined)[] = [];
  private readonly scanFieldCache = new Map<string, boolean>();
  /** One string object per distinct scanned string value (facet values repeat across documents). */
  private readonly internedValues = new Map<string, string>();
  readonly seqById = new Map<string, number>();
  readonly dictionary = new TermDictionary();
  readonly textFields = new Map<string, TextFieldIndex>();
  readonly stringFacets = new Map<string, StringFacetColumn>();
  /** Single-valued numeric/bool columns (NaN = missing), by field name. */
  readonly numericColumns = new Map<string, Float64Array>();
  readonly fieldsByName = new Map<string, FieldDefinition>();
  /** 1 for sequence ids holding a live document (scanned by filters and wildcard queries). */
  live = new Uint8Array(1024);
  private nextSeq = 0;
  private liveCount = 0;
  /** Bumped on every write; lets callers cache per-version data. */
  version = 0;
  /** The server's synonym and curation sets (set by the engine); searches read the ones the schema names. */
  sets: SetRegistry | undefined;
  /**
   * With `enable_nested_fields`: per sequence id, the document's dotted fields
   * (`hierarchicalCategories.lvl0` → value); stored documents keep their nesting.
   */
  readonly flat: (Record<string, unknown> | undefined)[] = [];
  /** Child fields of `object` / `object[]` fields found in documents (Typesense adds them to the schema). */
  readonly discoveredFields: FieldDefinition[] = [];

  /**
   * @param arena where stored documents live: the server's shared arena (the writer owns it, readers
   *   follow it) or, by default, one of its own.
   */
  constructor(
    readonly schema: CollectionSchema,
    public arena: DocumentArena = DocumentArena.create(),
  ) {
    for (const field of schema.fields) this.addField(field);
  }

  /** The stored document of a sequence id (decoded from the arena; recent ones are cached). */
  document(seq: number): StoredDocument | undefined {
    const length = this.documentLengths[seq];
    if (!length) return undefined;
    let document = this.decoded.get(seq);
    if (!document) {
      document = JSON.parse(this.arena.read(this.documentOffsets[seq] as number, length)) as StoredDocument;
      if (this.decoded.size >= DECODED_CACHE_SIZE) this.decoded.clear();
      this.decoded.set(seq, document);
    }
    return document;
  }

  /** The stored document's JSON text (snapshots write it as is). */
  documentJson(seq: number): string | undefined {
    const length = this.documentLengths[seq];
    return length ? this.arena.read(this.documentOffsets[seq] as number, length) : undefined;
  }

  /** Sequence ids holding a document, in order. */
  *documentSeqs(): Generator<number> {
    for (let seq = 0; seq < this.nextSeq; seq++) if (this.documentLengths[seq]) yield seq;
  }

  /** Moves every stored document into `target` (a compacted arena), records copied as they are. */
  relocate(target: DocumentArena): void {
    for (let seq = 0; seq < this.nextSeq; seq++) {
      const length = this.documentLengths[seq] as number;
      if (!length) continue;
      this.documentOffsets[seq] = target.copyRecord(this.arena, this.documentOffsets[seq] as number, length)[0];
    }
    this.arena = target;
  }

  /** Where each sequence id's document is in the arena, and the next sequence id (a reader loads from this). */
  exportPlacements(): { offsets: Float64Array; lengths: Int32Array; nextSeq: number } {
    return { offsets: this.documentOffsets.slice(0, this.nextSeq), lengths: this.documentLengths.slice(0, this.nextSeq), nextSeq: this.nextSeq };
  }

  /**
   * Rebuilds the writer's collection in a reader from its arena: each document indexed at the
   * writer's sequence id, so later changes (applied to both) keep the same ids.
   */
  restoreFrom(placements: { offsets: Float64Array; lengths: Int32Array; nextSeq: number }): void {
    const { offsets, lengths } = placements;
    for (let seq = 0; seq < placements.nextSeq; seq++) {
      const length = lengths[seq] as number;
      if (!length) continue;
      const offset = offsets[seq] as number;
      this.nextSeq = seq;
      this.arena.follow([offset, length]);
      this.write(JSON.parse(this.arena.read(offset, length)) as Record<string, unknown>, 'upsert');
    }
    this.nextSeq = placements.nextSeq;
    this.arena.follow([]);
  }

  private isScanField(name: string): boolean {
    let scanned = this.scanFieldCache.get(name);
    if (scanned === undefined) {
      const field = this.fieldsByName.get(name);
      scanned = field !== undefined && field.index && (field.facet || field.sort || !isStringType(field.type));
      this.scanFieldCache.set(name, scanned);
    }
    return scanned;
  }

  private intern(value: unknown): unknown {
    if (typeof value === 'string') {
      const known = this.internedValues.get(value);
      if (known !== undefined) return known;
      this.internedValues.set(value, value);
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => this.intern(item));
    return value;
  }

  /**
   * This collection's documents indexed under another schema (`PATCH /collections/:name` with
   * `fields`): every stored document is validated against `schema` (the first failure throws its
   * ApiError and nothing changes) and indexed at its own sequence id. The stored records stay
   * where they are in the arena, untouched, as Typesense re-indexes but keeps stored documents,
   * so a reader worker applying the same change follows no new placements.
   */
  withSchema(schema: CollectionSchema): Collection {
    const next = new Collection(schema, this.arena);
    next.sets = this.sets;
    for (let seq = 0; seq < this.nextSeq; seq++) {
      const length = this.documentLengths[seq] as number;
      if (!length) continue;
      const stored = this.document(seq) as StoredDocument;
      const document = validateDocument(schema, stored, stored.id, seq);
      const flat = next.flattenForIndex(document, seq);
      next.nextSeq = seq + 1;
      next.seqById.set(stored.id, seq);
      next.liveCount++;
      next.index(seq, document, flat, [this.documentOffsets[seq] as number, length]);
    }
    next.nextSeq = this.nextSeq;
    // Later than any version of this collection, so per-version caches never mix the two.
    next.version = this.version + 1;
    next.compact();
    return next;
  }

  /** With `enable_nested_fields`: the document's dotted values (fields found for the first time join the schema). */
  private flattenForIndex(document: StoredDocument, seqForErrors: number): Record<string, unknown> | undefined {
    if (!this.schema.enable_nested_fields) return undefined;
    const flattened = flattenDocument(this.schema, this.fieldsByName, document, (field, value) => coerceField(field, value, seqForErrors));
    for (const field of flattened.discovered) {
      this.discoveredFields.push(field);
      this.addField(field);
    }
    return flattened.values;
  }

  /** @param placement where the document already is in the arena (re-indexing); default: store it. */
  private storeDocument(seq: number, document: StoredDocument, placement?: [number, number]): void {
    if (seq >= this.documentLengths.length) {
      let size = this.documentLengths.length;
      while (size <= seq) size *= 2;
      const offsets = new Float64Array(size);
      offsets.set(this.documentOffsets);
      this.documentOffsets = offsets;
      const lengths = new Int32Array(size);
      lengths.set(this.documentLengths);
      this.documentLengths = lengths;
    }
    this.releaseDocument(seq);
    const [offset, length] = placement ?? this.arena.store(JSON.stringify(document));
    this.documentOffsets[seq] = offset;
    this.documentLengths[seq] = length;
    let values: Record<string, unknown> | undefined;
    for (const key of Object.keys(document)) {
      if (!this.isScanField(key)) continue;
      values ??= {};
      values[key] = this.intern(document[key]);
    }
    this.scanValues[seq] = values;
  }

  private releaseDocument(seq: number): void {
    const length = this.documentLengths[seq];
    if (!length) return;
    this.arena.release(length);
    this.documentLengths[seq] = 0;
    this.decoded.delete(seq);
    this.scanValues[seq] = undefined;
  }

  /** Registers a field and creates its index structures (also for nested fields found later). */
  private addField(field: FieldDefinition): void {
    this.fieldsByName.set(field.name, field);
    this.scanFieldCache.clear();
    if (!field.index) return;
    const capacity = Math.max(1024, this.nextSeq);
    if (field.type === 'string' || field.type === 'string[]') {
      this.textFields.set(field.name, { field, postings: [], wordCounts: new Uint16Array(capacity), sequences: new TokenSequences() });
      if (field.facet) {
        this.stringFacets.set(field.name, { field, values: [], foldedValues: [], valueIds: new Map(), perDocument: [], valueDocuments: [] });
      }
    } else if ((isNumericType(field.type) || field.type === 'bool') && !isArrayType(field.type)) {
      this.numericColumns.set(field.name, new Float64Array(capacity).fill(Number.NaN));
    }
  }

  /** A field's value for a document: its dotted (nested) value or its top-level value. */
  valueOf(seq: number, name: string): unknown {
    const flat = this.flat[seq];
    if (flat && name in flat) return flat[name];
    if (this.isScanField(name)) return this.scanValues[seq]?.[name];
    return this.document(seq)?.[name];
  }

  get name(): string {
    return this.schema.name;
  }

  /** Number of live documents. */
  get size(): number {
    return this.liveCount;
  }

  /** Upper bound (exclusive) of sequence ids handed out so far. */
  get seqLimit(): number {
    return this.nextSeq;
  }

  getDocument(id: string): StoredDocument | undefined {
    const seq = this.seqById.get(id);
    return seq === undefined ? undefined : this.document(seq);
  }

  /**
   * Applies one write (an import line). Returns the stored document.
   * Throws ApiError with Typesense's per-line status and message; on error the
   * index is unchanged.
   */
  write(raw: Record<string, unknown>, action: WriteAction): StoredDocument {
    const givenId = documentIdOf(raw);
    const existingSeq = givenId === undefined ? undefined : this.seqById.get(givenId);
    const existing = existingSeq === undefined ? undefined : this.document(existingSeq);
    if (action === 'create' && existing) throw new ApiError(409, `A document with id ${givenId} already exists.`);
    if (action === 'update' && !existing) {
      throw new ApiError(404, `Could not find a document with id: ${givenId ?? ''}`);
    }
    let merged: Record<string, unknown> = raw;
    if (existing && (action === 'update' || action === 'emplace')) merged = { ...existing, ...raw };
    const id = givenId ?? this.freshId();
    const seqForErrors = existingSeq ?? this.nextSeq;
    const document = validateDocument(this.schema, merged, id, seqForErrors);
    const flat = this.flattenForIndex(document, seqForErrors);
    if (existingSeq !== undefined && existing) {
      this.unindex(existingSeq, existing);
      this.index(existingSeq, document, flat);
    } else {
      const seq = this.nextSeq++;
      this.seqById.set(id, seq);
      this.liveCount++;
      this.index(seq, document, flat);
    }
    this.version++;
    return document;
  }

  /** Removes a document; returns it or undefined when unknown. */
  delete(id: string): StoredDocument | undefined {
    const seq = this.seqById.get(id);
    if (seq === undefined) return undefined;
    const document = this.document(seq);
    if (!document) return undefined;
    this.unindex(seq, document);
    this.releaseDocument(seq);
    this.flat[seq] = undefined;
    this.seqById.delete(id);
    this.liveCount--;
    this.version++;
    return document;
  }

  /** Frees spare capacity after a bulk load. */
  compact(): void {
    for (const text of this.textFields.values()) {
      for (const list of text.postings) list?.compact();
      text.sequences.compact();
    }
  }

  private markLive(seq: number, isLive: boolean): void {
    if (seq >= this.live.length) {
      const grown = new Uint8Array(Math.max(this.live.length * 2, seq + 1));
      grown.set(this.live);
      this.live = grown;
    }
    this.live[seq] = isLive ? 1 : 0;
  }

  private freshId(): string {
    // Typesense assigns the sequence id as a string; skip ids a client already used.
    let candidate = this.nextSeq;
    while (this.seqById.has(String(candidate))) candidate++;
    return String(candidate);
  }

  private fieldTexts(document: StoredDocument, name: string, flat: Record<string, unknown> | undefined): string[] {
    const value = flat && name in flat ? flat[name] : document[name];
    if (typeof value === 'string') return [value];
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    return [];
  }

  /** Per term id: last (document, field) pass that saw it, to add each posting once without Sets. */
  private fieldStamp = new Int32Array(1024);
  /** Per term id: last document that counted it, for document frequencies. */
  private documentStamp = new Int32Array(1024);
  private stampCounter = 0;

  private ensureStampCapacity(): void {
    const needed = this.dictionary.size;
    if (needed <= this.fieldStamp.length) return;
    let length = this.fieldStamp.length;
    while (length < needed) length *= 2;
    const fieldStamp = new Int32Array(length);
    fieldStamp.set(this.fieldStamp);
    this.fieldStamp = fieldStamp;
    const documentStamp = new Int32Array(length);
    documentStamp.set(this.documentStamp);
    this.documentStamp = documentStamp;
  }

  private index(seq: number, document: StoredDocument, flat: Record<string, unknown> | undefined, placement?: [number, number]): void {
    this.storeDocument(seq, document, placement);
    if (flat || this.flat[seq]) this.flat[seq] = flat;
    this.markLive(seq, true);
    const documentMark = seq + 1;
    const touchedTerms: number[] = [];
    for (const [name, text] of this.textFields) {
      const fieldMark = ++this.stampCounter;
      let fewestWords = Number.POSITIVE_INFINITY;
      const sequence: number[] = [];
      for (const value of this.fieldTexts(document, name, flat)) {
        const terms = tokenize(value);
        if (terms.length < fewestWords) fewestWords = terms.length;
        if (sequence.length > 0) sequence.push(-1);
        for (const term of terms) {
          const termId = this.dictionary.intern(term);
          sequence.push(termId);
          this.ensureStampCapacity();
          if (this.fieldStamp[termId] === fieldMark) continue;
          this.fieldStamp[termId] = fieldMark;
          let list = text.postings[termId];
          if (!list) {
            list = new PostingList();
            text.postings[termId] = list;
          }
          list.add(seq);
          if (this.documentStamp[termId] !== documentMark) {
            this.documentStamp[termId] = documentMark;
            touchedTerms.push(termId);
          }
        }
      }
      if (seq >= text.wordCounts.length) {
        const grown = new Uint16Array(Math.max(text.wordCounts.length * 2, seq + 1));
        grown.set(text.wordCounts);
        text.wordCounts = grown;
      }
      text.wordCounts[seq] = Number.isFinite(fewestWords) ? Math.min(fewestWords, 65535) : 0;
      if (sequence.length > 0) text.sequences.set(seq, sequence);
      else text.sequences.clear(seq);
    }
    for (const termId of touchedTerms) this.dictionary.adjustFrequency(termId, 1);
    for (const [name, facet] of this.stringFacets) {
      const ids: number[] = [];
      for (const value of this.fieldTexts(document, name, flat)) {
        let valueId = facet.valueIds.get(value);
        if (valueId === undefined) {
          valueId = facet.values.length;
          facet.values.push(value);
          facet.foldedValues.push(foldedKey(value));
          facet.valueIds.set(value, valueId);
          facet.valueDocuments.push(new PostingList());
        }
        if (!ids.includes(valueId)) {
          ids.push(valueId);
          facet.valueDocuments[valueId]?.add(seq);
        }
      }
      facet.perDocument[seq] = ids;
    }
    for (const [name, column] of this.numericColumns) {
      let target = column;
      if (seq >= column.length) {
        target = new Float64Array(Math.max(column.length * 2, seq + 1)).fill(Number.NaN);
        target.set(column);
        this.numericColumns.set(name, target);
      }
      const value = flat && name in flat ? flat[name] : document[name];
      target[seq] = typeof value === 'number' ? value : typeof value === 'boolean' ? (value ? 1 : 0) : Number.NaN;
    }
  }

  private unindex(seq: number, document: StoredDocument): void {
    const flat = this.flat[seq];
    const documentMark = -(seq + 1);
    const touchedTerms: number[] = [];
    for (const [name, text] of this.textFields) {
      const fieldMark = ++this.stampCounter;
      for (const value of this.fieldTexts(document, name, flat)) {
        for (const term of tokenize(value)) {
          const termId = this.dictionary.lookup(term);
          if (termId === undefined || this.fieldStamp[termId] === fieldMark) continue;
          this.fieldStamp[termId] = fieldMark;
          text.postings[termId]?.remove(seq);
          if (this.documentStamp[termId] !== documentMark) {
            this.documentStamp[termId] = documentMark;
            touchedTerms.push(termId);
          }
        }
      }
    }
    for (const termId of touchedTerms) this.dictionary.adjustFrequency(termId, -1);
    for (const text of this.textFields.values()) text.sequences.clear(seq);
    this.markLive(seq, false);
    for (const facet of this.stringFacets.values()) {
      for (const valueId of facet.perDocument[seq] ?? []) facet.valueDocuments[valueId]?.remove(seq);
      facet.perDocument[seq] = undefined;
    }
    for (const column of this.numericColumns.values()) if (seq < column.length) column[seq] = Number.NaN;
  }
}
