import type { AnalyticsOperation, NotedSearch, SearchNote } from '../analytics/analytics-manager.js';
import type { ExportedCollection, SearchEngine } from '../engine.js';

/**
 * Messages between the search server's HTTP thread and its workers. Searches
 * carry the merged raw parameters unchanged, so any parameter the engine
 * learns is passed through without touching the protocol; collection
 * administration is a call of a `SearchEngine` method by name.
 */

/** Engine methods the HTTP thread may call (any public method of SearchEngine). */
export type EngineMethod = {
  [K in keyof SearchEngine]: SearchEngine[K] extends (...args: never[]) => unknown ? K : never;
}[keyof SearchEngine];

/** The searches of one union, run together in one worker and merged into one result. */
export interface UnionTask {
  searches: Record<string, string>[];
  removeDuplicates: boolean;
}

/** What a worker is started with (`workerData`). */
export interface WorkerStartData {
  dataDir: string;
  /** The writer's analytics (`AnalyticsManager`): events one client address may post per minute (0 = no limit). */
  analyticsMinuteRateLimit?: number;
  /** The writer loads the folder and persists changes; readers rebuild from the writer (`restore`). */
  role: 'writer' | 'reader';
  /** Readers: the writer's document arena (shared memory, see `DocumentArena`). */
  arena?: SharedArrayBuffer;
  /** Readers: the writer's collections to rebuild, taken under the pool's write lock. */
  restore?: ExportedCollection[];
}

export type WorkerRequest =
  | {
      type: 'search';
      id: number;
      /** Collection name (from the request path or the search's `collection`). */
      collection: string | undefined;
      /** Merged raw parameters (scoped key, query string, body), as Typesense receives them. */
      params: Record<string, string>;
      /** A result serialised larger than this becomes a 422 error in its slot. */
      maxResultBytes: number;
      /** Set for a `"union": true` multi_search: `params` are the request's paging, these the merged searches. */
      union?: UnionTask;
    }
  | {
      type: 'call';
      id: number;
      method: EngineMethod;
      args: unknown[];
      /** Readers: where the writer stored the documents of the same call (offset, length pairs, in order). */
      placements?: number[];
    }
  /** A call of the writer's `AnalyticsManager` (analytics routes, flushes); only the writer holds analytics. */
  | { type: 'analytics'; id: number; operation: AnalyticsOperation; args: unknown[] }
  /** Searches answered by any worker, for the writer's analytics; not answered. */
  | { type: 'noteSearches'; searches: NotedSearch[] }
  | { type: 'flush'; id: number }
  | { type: 'memory'; id: number };

/** One worker's own memory (its V8 isolate), for `/stats.json` and the memory measurements. */
export interface WorkerMemory {
  role: 'writer' | 'reader';
  /** V8 heap in use and reserved by this worker's isolate, MB. */
  heapUsedMb: number;
  heapTotalMb: number;
  /** ArrayBuffers (typed-array index structures) this isolate allocated, MB; shared buffers are not counted. */
  arrayBuffersMb: number;
  /** CPU time this thread used since it started (loading, searches, calls), ms (`threadCpuMs`). */
  cpuMs: number;
}

export type WorkerResponse =
  | { type: 'ready'; loadMs: number; documents: number; /** The writer's document arena, for readers. */ arena?: SharedArrayBuffer }
  | { type: 'log'; message: string }
  | {
      type: 'result';
      id: number;
      ok: true;
      /**
       * A search's answer: the result's JSON as UTF-8 bytes, encoded by the worker and transferred
       * (not copied), so the HTTP thread only writes bytes. A call answers with `value`.
       */
      body?: Uint8Array;
      value?: unknown;
      /** A search's analytics record (undefined when `enable_analytics=false`, for unions and calls). */
      note?: SearchNote;
      /** The writer: where this call stored documents in the arena (readers apply the call with them). */
      placements?: number[];
      /** The writer compacted its arena after this call: readers are rebuilt from this one instead. */
      arena?: SharedArrayBuffer;
    }
  | { type: 'result'; id: number; ok: false; status: number; message: string };
