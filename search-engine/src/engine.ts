import { ApiError } from './api-error.js';
import type { AnalyticsChange } from './analytics/analytics-manager.js';
import { type AnalyticsApplyResult, applyAnalyticsChanges } from './analytics/apply-changes.js';
import { nestsDeeperThan, TOO_DEEPLY_NESTED } from './json-depth.js';
import { Collection, type WriteAction } from './index/collection.js';
import { DocumentArena } from './index/document-arena.js';
import { CollectionStore, type LogEntry } from './persistence/collection-store.js';
import { SetStore } from './sets/set-store.js';
import { alterationError, alterSchema } from './schema/alter-schema.js';
import { type CollectionSchema, collectionSummary, parseCollectionSchema } from './schema/collection-schema.js';
import { SET_READ_OPERATIONS, SET_WRITE_OPERATIONS, SetRegistry, type SetReadOperation, type SetWriteOperation } from './sets/set-registry.js';
import type { StoredDocument } from './schema/validate-document.js';

/** A writer's collection as a reader rebuilds it: its schema and where its documents are in the shared arena. */
export interface ExportedCollection {
  schema: CollectionSchema;
  placements: ReturnType<Collection['exportPlacements']>;
}

/** How an engine holds its documents (see `DocumentArena`). */
export interface EngineDocumentOptions {
  /** The arena documents are stored in. Default: one of the engine's own. */
  arena?: DocumentArena;
  /** A reader: build the collections from the writer's arena instead of loading the store's files. */
  restore?: ExportedCollection[];
}

/** Result line of an import, as Typesense writes it. */
export type ImportLineResult = Record<string, unknown>;

/**
 * The collections of one server and their optional on-disk store. Every
 * method validates its input and throws ApiError; a failing document never
 * changes the index.
 */
export class SearchEngine {
  private readonly collections = new Map<string, Collection>();
  /** Server-wide synonym sets and curation sets (Typesense 30), stored beside the collections. */
  readonly sets: SetRegistry;

  /** Where stored documents live (shared with reader workers when this engine is a pool's writer). */
  arena: DocumentArena;

  constructor(
    private readonly store: CollectionStore | undefined,
    log: (msg: string) => void = () => {},
    documents: EngineDocumentOptions = {},
  ) {
    this.arena = documents.arena ?? DocumentArena.create();
    this.sets = new SetRegistry(store ? new SetStore(store.dataDir, store.readOnly) : undefined, log);
    if (documents.restore) {
      for (const { schema, placements } of documents.restore) {
        const collection = new Collection(schema, this.arena);
        collection.restoreFrom(placements);
        collection.compact();
        collection.sets = this.sets;
        this.collections.set(collection.name, collection);
      }
    } else if (store) {
      for (const collection of store.loadAll(log, this.arena)) {
        collection.sets = this.sets;
        this.collections.set(collection.name, collection);
      }
    }
  }

  /** Throws 404 like Typesense when a referenced set does not exist. */
  private requireSets(schema: Pick<CollectionSchema, 'synonym_sets' | 'curation_sets'>): void {
    for (const name of schema.synonym_sets) if (!this.sets.hasSynonymSet(name)) throw new ApiError(404, `Synonym set \`${name}\` not found.`);
    for (const name of schema.curation_sets) if (!this.sets.hasCurationSet(name)) throw new ApiError(404, `Curation set \`${name}\` not found.`);
  }

  /**
   * PATCH /collections/:name: attaches synonym sets and curation sets (the lists replace the
   * old ones) and alters the schema with `fields` (see `alterSchema`: add fields, drop them with
   * `"drop": true`, change = drop + add; every stored document is checked against the new
   * schema and re-indexed). Answers the request body, as Typesense does, with `fields` drops
   * first and added fields with their defaults. Everything is checked before anything changes.
   */
  patchCollection(name: string, body: unknown): Record<string, unknown> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
    const patch = body as Record<string, unknown>;
    if (Object.keys(patch).length === 0) throw new ApiError(400, 'Alter payload is empty.');
    for (const key of Object.keys(patch)) {
      if (!['metadata', 'fields', 'synonym_sets', 'curation_sets'].includes(key)) {
        throw new ApiError(400, 'Only `fields`, `metadata` and `synonym_sets` can be updated at the moment.');
      }
    }
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, 'Collection not found');
    if (patch.metadata !== undefined && (typeof patch.metadata !== 'object' || patch.metadata === null || Array.isArray(patch.metadata))) {
      throw new ApiError(400, 'The `metadata` value should be an object.');
    }
    const lists: Partial<Record<'synonym_sets' | 'curation_sets', string[]>> = {};
    for (const key of ['synonym_sets', 'curation_sets'] as const) {
      const value = patch[key];
      if (value === undefined) continue;
      if (!Array.isArray(value)) throw new ApiError(400, `The \`${key}\` value should be an array.`);
      if (value.some((v) => typeof v !== 'string')) throw new ApiError(400, `The \`${key}\` value should be an array.`);
      lists[key] = value as string[];
    }
    this.requireSets({ synonym_sets: lists.synonym_sets ?? [], curation_sets: lists.curation_sets ?? [] });
    let altered: Collection | undefined;
    let answer = patch;
    if (patch.fields !== undefined) {
      const alteration = alterSchema(collection.schema, patch.fields);
      try {
        altered = collection.withSchema(alteration.schema);
      } catch (error) {
        throw error instanceof ApiError ? alterationError(error) : error;
      }
      answer = { ...patch, fields: alteration.answeredFields };
    }
    const target = altered ?? collection;
    if (lists.synonym_sets) target.schema.synonym_sets = [...lists.synonym_sets];
    if (lists.curation_sets) target.schema.curation_sets = [...lists.curation_sets];
    if (altered) this.collections.set(name, altered);
    this.store?.updateSchema(target.schema);
    return answer;
  }

  /** Answers a reading set route (`GET /synonym_sets…`, `GET /curation_sets…`). */
  readSets(operation: SetReadOperation, args: unknown[]): unknown {
    if (!SET_READ_OPERATIONS.includes(operation)) throw new ApiError(500, `Unknown set operation ${String(operation)}.`);
    return (this.sets[operation] as (...values: unknown[]) => unknown).apply(this.sets, args);
  }

  /**
   * Applies a changing set route (`PUT`/`DELETE` of a set or item). The search server's
   * writer worker persists it; its reader workers (read-only store) apply the same call.
   */
  changeSets(operation: SetWriteOperation, args: unknown[]): unknown {
    if (!SET_WRITE_OPERATIONS.includes(operation)) throw new ApiError(500, `Unknown set operation ${String(operation)}.`);
    return (this.sets[operation] as (...values: unknown[]) => unknown).apply(this.sets, args);
  }

  /**
   * Replaces the arena by a compacted one when replaced document versions fill most of it; true
   * when it did (a pool's readers must then be rebuilt from the new arena).
   */
  compactArena(minimumGarbageBytes?: number): boolean {
    if (!this.arena.needsCompaction(minimumGarbageBytes)) return false;
    const next = this.arena.compacted();
    for (const collection of this.collections.values()) collection.relocate(next);
    this.arena = next;
    return true;
  }

  /** Every collection's schema and document placements (a new reader worker rebuilds from them). */
  exportCollections(): ExportedCollection[] {
    return [...this.collections.values()].map((collection) => ({ schema: collection.schema, placements: collection.exportPlacements() }));
  }

  get(name: string): Collection | undefined {
    return this.collections.get(name);
  }

  list(): Record<string, unknown>[] {
    return [...this.collections.values()].map((c) => collectionSummary(c.schema, c.size, c.discoveredFields));
  }

  createCollection(body: unknown): Record<string, unknown> {
    const schema = parseCollectionSchema(body);
    if (this.collections.has(schema.name)) throw new ApiError(409, `A collection with name \`${schema.name}\` already exists.`);
    this.requireSets(schema);
    const collection = new Collection(schema, this.arena);
    collection.sets = this.sets;
    this.store?.create(schema);
    this.collections.set(schema.name, collection);
    return collectionSummary(schema, 0);
  }

  retrieveCollection(name: string): Record<string, unknown> {
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, 'Collection not found');
    return collectionSummary(collection.schema, collection.size, collection.discoveredFields);
  }

  dropCollection(name: string): Record<string, unknown> {
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, `No collection with name \`${name}\` found.`);
    const summary = collectionSummary(collection.schema, collection.size, collection.discoveredFields);
    this.collections.delete(name);
    this.store?.drop(name);
    return summary;
  }

  private requireCollection(name: string): Collection {
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, 'Collection not found');
    return collection;
  }

  /**
   * Imports JSONL: one result per non-empty line, in order. A failing line
   * is reported and the others are still imported.
   */
  importDocuments(name: string, body: string, action: WriteAction, returnId: boolean, returnDoc: boolean): ImportLineResult[] {
    const collection = this.requireCollection(name);
    const results: ImportLineResult[] = [];
    const changes: LogEntry[] = [];
    for (const rawLine of body.split('\n')) {
      const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
      if (line.trim() === '') continue;
      try {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch (error) {
          throw new ApiError(400, `Bad JSON: ${(error as Error).message}`);
        }
        if (nestsDeeperThan(parsed)) throw new ApiError(400, TOO_DEEPLY_NESTED);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new ApiError(400, 'Bad JSON: not a properly formed document.');
        }
        const stored = collection.write(parsed as Record<string, unknown>, action);
        changes.push({ op: 'upsert', document: stored });
        const result: ImportLineResult = { success: true };
        if (returnId) result.id = stored.id;
        if (returnDoc) result.document = stored;
        results.push(result);
      } catch (error) {
        const apiError = error instanceof ApiError ? error : new ApiError(500, 'Internal error while importing.');
        const result: ImportLineResult = { code: apiError.status, error: apiError.message, success: false };
        if (returnDoc) result.document = line;
        results.push(result);
      }
    }
    this.persist(collection, changes);
    return results;
  }

  /** Creates or writes one document (POST /collections/:name/documents). */
  writeDocument(name: string, body: unknown, action: WriteAction): StoredDocument {
    const collection = this.requireCollection(name);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError(400, 'Bad JSON.');
    const stored = collection.write(body as Record<string, unknown>, action);
    this.persist(collection, [{ op: 'upsert', document: stored }]);
    return stored;
  }

  getDocument(name: string, id: string): StoredDocument {
    const document = this.requireCollection(name).getDocument(id);
    if (!document) throw new ApiError(404, `Could not find a document with id: ${id}`);
    return document;
  }

  deleteDocument(name: string, id: string): StoredDocument {
    const collection = this.requireCollection(name);
    const document = collection.delete(id);
    if (!document) throw new ApiError(404, `Could not find a document with id: ${id}`);
    this.persist(collection, [{ op: 'delete', id }]);
    return document;
  }

  /**
   * Applies an analytics flush (counter increments, query counts; see `analytics/apply-changes.ts`).
   * A pool write: the writer persists it, every reader applies the same changes.
   */
  applyAnalyticsChanges(changes: AnalyticsChange[]): AnalyticsApplyResult {
    return applyAnalyticsChanges(changes, (name) => this.collections.get(name), (collection, entries) => this.persist(collection, entries));
  }

  /** Appends changes to the collection's log, folding it into a snapshot when it grew large. */
  private persist(collection: Collection, changes: LogEntry[]): void {
    if (!this.store) return;
    this.store.append(collection.name, changes);
    if (this.store.needsCompaction(collection.name)) this.store.writeSnapshot(collection);
  }

  /** Folds logs into snapshots (called on close). */
  flush(): void {
    if (!this.store) return;
    for (const collection of this.collections.values()) {
      if (this.store.dirty.has(collection.name)) this.store.writeSnapshot(collection);
    }
  }
}
