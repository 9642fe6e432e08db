/**
 * One search worker thread with its own index, answering searches and engine calls one at a
 * time. The writer loads the data folder and stores the documents in a shared arena; a reader
 * rebuilds the writer's collections from that arena (same sequence ids) and reads documents
 * from it instead of keeping its own copy.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../api-error.js';
import { ANALYTICS_OPERATIONS, AnalyticsManager } from '../analytics/analytics-manager.js';
import { AnalyticsStore } from '../analytics/analytics-store.js';
import { searchNote } from '../analytics/search-note.js';
import { SearchEngine } from '../engine.js';
import { DocumentArena } from '../index/document-arena.js';
import { runSearch } from '../search/multi-search.js';
import { runUnion } from '../search/union.js';
import { CollectionStore } from '../persistence/collection-store.js';
import { threadCpuMs } from './thread-cpu.js';
import type { WorkerMemory, WorkerRequest, WorkerResponse, WorkerStartData } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('search-worker must run in a worker thread');
const { dataDir, role, arena: sharedArena, restore, analyticsMinuteRateLimit } = workerData as WorkerStartData;
const send = (message: WorkerResponse): void => port.postMessage(message);
/** Its `encode` returns a Uint8Array over its own ArrayBuffer, which can be transferred. */
const utf8 = new TextEncoder();

const started = performance.now();
if (role === 'reader' && !(sharedArena && restore)) throw new Error('a reader worker needs the writer arena and collections');
const engine = new SearchEngine(
  new CollectionStore(dataDir, undefined, role === 'reader'),
  (message) => {
    if (role === 'writer') send({ type: 'log', message });
  },
  { arena: role === 'writer' ? DocumentArena.create(true) : DocumentArena.follow(sharedArena as SharedArrayBuffer), restore },
);
// Analytics live in the writer only (readers forward nothing: the HTTP thread sends the writer every search's note).
const analytics =
  role === 'writer'
    ? new AnalyticsManager(new AnalyticsStore(dataDir), (name) => engine.get(name) !== undefined, { minuteRateLimit: analyticsMinuteRateLimit ?? 0 }, (message) => send({ type: 'log', message }))
    : undefined;
// Placements of the load itself are not sent: readers rebuild from `exportCollections`.
if (role === 'writer') engine.arena.takePlacements();
collectLoadGarbage();
send({
  type: 'ready',
  loadMs: Math.round(performance.now() - started),
  documents: engine.list().reduce((sum, c) => sum + Number(c.num_documents ?? 0), 0),
  arena: role === 'writer' ? engine.arena.buffer : undefined,
});

/**
 * Loading leaves most of the heap as garbage (parsed lines, validated copies, grown arrays). A full
 * collection right away returns those pages instead of keeping them resident until V8 gets to it
 * (measured at 100k articles: see the README's memory table).
 */
function collectLoadGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}

function failure(id: number, error: unknown): WorkerResponse {
  if (error instanceof ApiError) return { type: 'result', id, ok: false, status: error.status, message: error.message };
  send({ type: 'log', message: `internal error in a search worker: ${(error as Error)?.message ?? String(error)}` });
  return { type: 'result', id, ok: false, status: 500, message: 'Internal error.' };
}

port.on('message', (request: WorkerRequest) => {
  try {
    if (request.type === 'search') {
      const result = request.union
        ? runUnion(engine, request.union.searches, request.params, request.union.removeDuplicates)
        : runSearch(engine, request.collection, request.params);
      // Encoded here, on the worker, and handed over without a copy: the HTTP thread only writes bytes.
      const body = utf8.encode(JSON.stringify(result));
      if (body.byteLength > request.maxResultBytes) {
        throw new ApiError(422, `The result would exceed the response limit of ${request.maxResultBytes} bytes; ask for fewer hits, fields or highlights.`);
      }
      const note = request.union ? undefined : searchNote(request.collection, request.params, result);
      port.postMessage({ type: 'result', id: request.id, ok: true, body, note } satisfies WorkerResponse, [body.buffer as ArrayBuffer]);
    } else if (request.type === 'call') {
      const method = engine[request.method] as (...args: unknown[]) => unknown;
      if (typeof method !== 'function') throw new ApiError(500, `Unknown engine method ${request.method}.`);
      const arena = engine.arena;
      if (role === 'reader') arena.follow(request.placements ?? []);
      let value: unknown;
      try {
        value = method.apply(engine, request.args);
      } finally {
        if (role === 'reader' && !arena.followedAll) {
          // Same call, same input, same code: this cannot happen unless the reader missed a change.
          // Leave; the pool rebuilds a reader from the writer.
          send({ type: 'log', message: `search reader out of step with the writer after ${request.method}; restarting it` });
          process.exit(1);
        }
      }
      if (role === 'reader') {
        send({ type: 'result', id: request.id, ok: true, value });
      } else {
        const placements = arena.takePlacements();
        // Replaced versions filled most of the arena: the readers are rebuilt from a compacted one.
        const compacted = engine.compactArena();
        send({ type: 'result', id: request.id, ok: true, value, placements, arena: compacted ? engine.arena.buffer : undefined });
      }
    } else if (request.type === 'analytics') {
      if (!analytics || !ANALYTICS_OPERATIONS.includes(request.operation)) throw new ApiError(500, `Analytics operation ${request.operation} is not available here.`);
      const operation = analytics[request.operation] as (...args: unknown[]) => unknown;
      send({ type: 'result', id: request.id, ok: true, value: operation.apply(analytics, request.args) });
    } else if (request.type === 'noteSearches') {
      analytics?.noteSearches(request.searches);
    } else if (request.type === 'memory') {
      const usage = process.memoryUsage();
      const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
      const memory: WorkerMemory = { role, heapUsedMb: mb(usage.heapUsed), heapTotalMb: mb(usage.heapTotal), arrayBuffersMb: mb(usage.arrayBuffers), cpuMs: threadCpuMs() };
      send({ type: 'result', id: request.id, ok: true, value: memory });
    } else if (request.type === 'flush') {
      engine.flush();
      send({ type: 'result', id: request.id, ok: true });
    }
  } catch (error) {
    if (request.type === 'noteSearches') {
      send({ type: 'log', message: `analytics could not note searches: ${(error as Error)?.message ?? String(error)}` });
      return;
    }
    // A failed writer call may have stored documents before failing; they are garbage, not placements.
    if (role === 'writer') engine.arena.takePlacements();
    send(failure(request.id, error));
  }
});
