import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { Collection } from '../index/collection.js';
import type { DocumentArena } from '../index/document-arena.js';
import type { CollectionSchema } from '../schema/collection-schema.js';
import type { StoredDocument } from '../schema/validate-document.js';

/** One change to append to a collection's log. */
export type LogEntry = { op: 'upsert'; document: StoredDocument } | { op: 'delete'; id: string };

const SCHEMA_FILE = 'schema.json';
const SNAPSHOT_FILE = 'documents.jsonl';
const LOG_FILE = 'log.jsonl';

/**
 * Keeps collections on disk: per collection a folder with `schema.json`,
 * a `documents.jsonl` snapshot and an append-only `log.jsonl` of changes.
 * On start the snapshot and the log are replayed into a fresh index and the
 * log is folded into a new snapshot.
 */
export class CollectionStore {
  /** Collections whose log has entries not yet folded into the snapshot. */
  readonly dirty = new Set<string>();

  /** Bytes appended to each collection's log since its last snapshot. */
  private readonly logBytes = new Map<string, number>();
  /** Size of each collection's last snapshot. */
  private readonly snapshotBytes = new Map<string, number>();

  /**
   * @param dataDir folder holding `collections/`
   * @param compactAfterBytes fold a log into a new snapshot once it exceeds this size and the
   *   snapshot's size, so a long-running server's log does not grow without bound. Default 64 MiB.
   * @param readOnly only load: never write, compact or delete (the search server's reader
   *   workers load the folder their writer keeps). Default false.
   */
  constructor(
    /** Folder holding `collections/` (and `sets/`, see SetStore). */
    readonly dataDir: string,
    private readonly compactAfterBytes = 64 * 1024 * 1024,
    readonly readOnly = false,
  ) {
    mkdirSync(join(dataDir, 'collections'), { recursive: true });
  }

  private folder(name: string): string {
    // The prefix keeps names such as ".." from ever addressing anything but their own folder.
    return join(this.dataDir, 'collections', `c-${encodeURIComponent(name)}`);
  }

  /** Loads every stored collection (replaying snapshot + log), then compacts. Documents go to `arena` when given. */
  loadAll(log: (msg: string) => void, arena?: DocumentArena): Collection[] {
    const root = join(this.dataDir, 'collections');
    const collections: Collection[] = [];
    for (const entry of readdirSync(root)) {
      const folder = join(root, entry);
      const schemaPath = join(folder, SCHEMA_FILE);
      if (!existsSync(schemaPath)) continue;
      try {
        const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as CollectionSchema;
        // Schemas written before synonym/curation sets existed lack the lists.
        schema.synonym_sets ??= [];
        schema.curation_sets ??= [];
        const collection = new Collection(schema, arena);
        const started = Date.now();
        this.replayLines(join(folder, SNAPSHOT_FILE), (line) => collection.write(JSON.parse(line) as Record<string, unknown>, 'upsert'));
        let logEntries = 0;
        this.replayLines(join(folder, LOG_FILE), (line) => {
          logEntries++;
          const change = JSON.parse(line) as LogEntry;
          if (change.op === 'upsert') collection.write(change.document, 'upsert');
          else collection.delete(change.id);
        });
        collection.compact();
        if (logEntries > 0 && !this.readOnly) this.writeSnapshot(collection);
        else if (existsSync(join(folder, SNAPSHOT_FILE))) this.snapshotBytes.set(schema.name, statSync(join(folder, SNAPSHOT_FILE)).size);
        log(`loaded collection ${schema.name}: ${collection.size} documents in ${Date.now() - started} ms`);
        collections.push(collection);
      } catch (error) {
        log(`skipped unreadable collection folder ${entry}: ${(error as Error).message}`);
      }
    }
    return collections;
  }

  private replayLines(path: string, apply: (line: string) => void): void {
    if (!existsSync(path) || statSync(path).size === 0) return;
    // Read in slices so 300 MB snapshots never become one giant string.
    const text = readFileSync(path);
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf(10, start);
      if (end < 0) end = text.length;
      if (end > start) {
        const line = text.toString('utf8', start, end);
        try {
          apply(line);
        } catch {
          // A torn last line (crash during append) is skipped; everything before it is kept.
        }
      }
      start = end + 1;
    }
  }

  create(schema: CollectionSchema): void {
    if (this.readOnly) return;
    const folder = this.folder(schema.name);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, SCHEMA_FILE), JSON.stringify(schema));
  }

  /** Rewrites a collection's schema (after PATCH /collections/:name), atomically. */
  updateSchema(schema: CollectionSchema): void {
    if (this.readOnly) return;
    const path = join(this.folder(schema.name), SCHEMA_FILE);
    writeFileSync(`${path}.tmp`, JSON.stringify(schema));
    renameSync(`${path}.tmp`, path);
  }

  drop(name: string): void {
    if (this.readOnly) return;
    rmSync(this.folder(name), { recursive: true, force: true });
  }

  append(name: string, entries: LogEntry[]): void {
    if (entries.length === 0 || this.readOnly) return;
    this.dirty.add(name);
    const text = entries.map((e) => JSON.stringify(e)).join('\n') + '\n';
    appendFileSync(join(this.folder(name), LOG_FILE), text);
    this.logBytes.set(name, (this.logBytes.get(name) ?? 0) + Buffer.byteLength(text));
  }

  /** True when the collection's log has outgrown both the threshold and its snapshot. */
  needsCompaction(name: string): boolean {
    const log = this.logBytes.get(name) ?? 0;
    return log > this.compactAfterBytes && log > (this.snapshotBytes.get(name) ?? 0);
  }

  /** Writes all live documents as the new snapshot and empties the log. */
  writeSnapshot(collection: Collection): void {
    if (this.readOnly) return;
    const folder = this.folder(collection.name);
    const temporary = join(folder, `${SNAPSHOT_FILE}.tmp`);
    const fd = openSync(temporary, 'w');
    try {
      let buffer: string[] = [];
      for (const seq of collection.documentSeqs()) {
        buffer.push(collection.documentJson(seq) as string);
        if (buffer.length >= 1000) {
          writeSync(fd, buffer.join('\n') + '\n');
          buffer = [];
        }
      }
      if (buffer.length > 0) writeSync(fd, buffer.join('\n') + '\n');
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(folder, SNAPSHOT_FILE));
    writeFileSync(join(folder, LOG_FILE), '');
    this.dirty.delete(collection.name);
    this.logBytes.set(collection.name, 0);
    this.snapshotBytes.set(collection.name, statSync(join(folder, SNAPSHOT_FILE)).size);
  }
}
