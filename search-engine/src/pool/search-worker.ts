/**
 * One search worker thread: loads the collections from the data folder into
 * its own index and answers searches and engine calls one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../api-error.js';
import { SearchEngine } from '../engine.js';
import { runSearch } from '../search/multi-search.js';
import { runUnion } from '../search/union.js';
import { CollectionStore } from '../persistence/collection-store.js';
import type { WorkerRequest, WorkerResponse, WorkerStartData } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('search-worker must run in a worker thread');
const { dataDir, role } = workerData as WorkerStartData;
const send = (message: WorkerResponse): void => port.postMessage(message);

const started = performance.now();
const engine = new SearchEngine(new CollectionStore(dataDir, undefined, role === 'reader'), (message) => {
  if (role === 'writer') send({ type: 'log', message });
});
send({ type: 'ready', loadMs: Math.round(performance.now() - started), documents: engine.list().reduce((sum, c) => sum + Number(c.num_documents ?? 0), 0) });

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
      const json = JSON.stringify(result);
      if (json.length > request.maxResultBytes) {
        throw new ApiError(422, `The result would exceed the response limit of ${request.maxResultBytes} bytes; ask for fewer hits, fields or highlights.`);
      }
      send({ type: 'result', id: request.id, ok: true, json });
    } else if (request.type === 'call') {
      const method = engine[request.method] as (...args: unknown[]) => unknown;
      if (typeof method !== 'function') throw new ApiError(500, `Unknown engine method ${request.method}.`);
      send({ type: 'result', id: request.id, ok: true, value: method.apply(engine, request.args) });
    } else if (request.type === 'flush') {
      engine.flush();
      send({ type: 'result', id: request.id, ok: true });
    }
  } catch (error) {
    send(failure(request.id, error));
  }
});
