import { ApiError } from './api-error.js';
import { Collection, type WriteAction } from './index/collection.js';
import { CollectionStore, type LogEntry } from './persistence/collection-store.js';
import { collectionSummary, parseCollectionSchema } from './schema/collection-schema.js';
import type { StoredDocument } from './schema/validate-document.js';

/** Result line of an import, as Typesense writes it. */
export type ImportLineResult = Record<string, unknown>;

/**
 * The collections of one server and their optional on-disk store. Every
 * method validates its input and throws ApiError; a failing document never
 * changes the index.
 */
export class SearchEngine {
  private readonly collections = new Map<string, Collection>();

  constructor(private readonly store: CollectionStore | undefined, log: (msg: string) => void = () => {}) {
    if (store) for (const collection of store.loadAll(log)) this.collections.set(collection.name, collection);
  }

  get(name: string): Collection | undefined {
    return this.collections.get(name);
  }

  list(): Record<string, unknown>[] {
    return [...this.collections.values()].map((c) => collectionSummary(c.schema, c.size));
  }

  createCollection(body: unknown): Record<string, unknown> {
    const schema = parseCollectionSchema(body);
    if (this.collections.has(schema.name)) throw new ApiError(409, `A collection with name \`${schema.name}\` already exists.`);
    const collection = new Collection(schema);
    this.store?.create(schema);
    this.collections.set(schema.name, collection);
    return collectionSummary(schema, 0);
  }

  retrieveCollection(name: string): Record<string, unknown> {
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, 'Collection not found');
    return collectionSummary(collection.schema, collection.size);
  }

  dropCollection(name: string): Record<string, unknown> {
    const collection = this.collections.get(name);
    if (!collection) throw new ApiError(404, `No collection with name \`${name}\` found.`);
    const summary = collectionSummary(collection.schema, collection.size);
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
