/**
 * A stand-in search worker for pool tests: speaks `worker-protocol.ts`,
 * "searches" by busy-waiting `busy_ms` (so the thread is truly occupied) and
 * answers with its thread id (and its V8 young generation limit); `crash=true` ends the thread mid-search.
 */
import { parentPort, resourceLimits, threadId } from 'node:worker_threads';
import type { WorkerRequest, WorkerResponse } from '../../src/pool/worker-protocol.js';

const port = parentPort!;
const send = (message: WorkerResponse): void => port.postMessage(message);
let applied = 0;
send({ type: 'ready', loadMs: 0, documents: 0 });
port.on('message', (request: WorkerRequest) => {
  if (request.type === 'search') {
    if (request.params.crash === 'true') process.exit(1);
    const until = Date.now() + Number(request.params.busy_ms ?? 0);
    while (Date.now() < until) {
      // Busy: a synchronous search holds its thread the same way.
    }
    send({ type: 'result', id: request.id, ok: true, body: new TextEncoder().encode(JSON.stringify({ thread: threadId, q: request.params.q, applied, youngGenerationMb: resourceLimits.maxYoungGenerationSizeMb })) });
  } else if (request.type === 'call') {
    // Reads (a reader being built asks the writer for its collections) change nothing.
    if (request.method !== 'exportCollections') applied++;
    send({ type: 'result', id: request.id, ok: true, value: { method: request.method, thread: threadId } });
  } else if (request.type !== 'noteSearches') {
    send({ type: 'result', id: request.id, ok: true });
  }
});
