import type { SearchEngine } from '../engine.js';

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
  /** The writer persists changes; readers load the same folder read-only. */
  role: 'writer' | 'reader';
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
  | { type: 'call'; id: number; method: EngineMethod; args: unknown[] }
  | { type: 'flush'; id: number };

export type WorkerResponse =
  | { type: 'ready'; loadMs: number; documents: number }
  | { type: 'log'; message: string }
  | { type: 'result'; id: number; ok: true; /** JSON text of a search result, or a call's value. */ json?: string; value?: unknown }
  | { type: 'result'; id: number; ok: false; status: number; message: string };
