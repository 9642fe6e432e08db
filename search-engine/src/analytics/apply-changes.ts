import type { Collection } from '../index/collection.js';
import type { LogEntry } from '../persistence/collection-store.js';
import type { AnalyticsChange } from './analytics-manager.js';

/** What one flush changed (answered to `POST /analytics/flush` callers and logged). */
export interface AnalyticsApplyResult {
  /** Documents written (counters incremented, query documents created or counted). */
  updated: number;
  /** Query documents removed beyond a rule's `limit`. */
  trimmed: number;
  /** Increments for documents that do not exist or could not take the value (skipped, as Typesense's import lines fail). */
  skipped: number;
}

/**
 * Applies a flush's changes to the collections, as Typesense's flush imports them: counters as
 * `update` with the field incremented (a missing field counts from 0), query documents as
 * `emplace` with `count` incremented, then a destination keeps only its `limit` documents with the
 * highest `count`. Deterministic, so every worker of the pool applying the same changes to the same
 * index ends in the same state. `persist` receives each collection's changes for its log.
 */
export function applyAnalyticsChanges(
  changes: AnalyticsChange[],
  collectionByName: (name: string) => Collection | undefined,
  persist: (collection: Collection, entries: LogEntry[]) => void,
): AnalyticsApplyResult {
  const result: AnalyticsApplyResult = { updated: 0, trimmed: 0, skipped: 0 };
  for (const change of changes) {
    const collection = collectionByName(change.collection);
    if (!collection) {
      result.skipped += change.kind === 'counter' ? change.increments.length : change.queries.length;
      continue;
    }
    const entries: LogEntry[] = [];
    if (change.kind === 'counter') {
      for (const [id, amount] of change.increments) {
        const existing = collection.getDocument(id);
        const current = existing?.[change.field];
        if (!existing || (current !== undefined && current !== null && typeof current !== 'number')) {
          result.skipped++;
          continue;
        }
        try {
          entries.push({ op: 'upsert', document: collection.write({ id, [change.field]: (current ?? 0) + amount }, 'update') });
          result.updated++;
        } catch {
          result.skipped++;
        }
      }
    } else {
      for (const query of change.queries) {
        const existing = collection.getDocument(query.id);
        const count = (typeof existing?.count === 'number' ? existing.count : 0) + query.count;
        try {
          entries.push({ op: 'upsert', document: collection.write({ ...query, count }, 'emplace') });
          result.updated++;
        } catch {
          result.skipped++;
        }
      }
      for (const id of idsBeyondLimit(collection, change.limit)) {
        if (collection.delete(id)) {
          entries.push({ op: 'delete', id });
          result.trimmed++;
        }
      }
    }
    persist(collection, entries);
  }
  return result;
}

/** Ids of the documents past the `limit` highest `count`s (ties: the older document stays). */
function idsBeyondLimit(collection: Collection, limit: number): string[] {
  if (collection.size <= limit) return [];
  const documents: { id: string; count: number; seq: number }[] = [];
  for (const seq of collection.documentSeqs()) {
    const json = collection.documentJson(seq);
    if (json === undefined) continue;
    const document = JSON.parse(json) as { id: string; count?: unknown };
    documents.push({ id: document.id, count: typeof document.count === 'number' ? document.count : 0, seq });
  }
  documents.sort((a, b) => b.count - a.count || a.seq - b.seq);
  return documents.slice(limit).map((d) => d.id);
}
