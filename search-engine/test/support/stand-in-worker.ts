/**
 * A stand-in search worker for pool tests: speaks `worker-protocol.ts`,
 * "searches" by busy-waiting `busy_ms` of its thread's CPU time (so the thread is truly occupied; `sleep_ms`
 * first waits without CPU) and
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
    // Waiting without CPU: a search on a machine too busy to give its thread a core.
    const sleepMs = Number(request.params.sleep_ms ?? 0);
    if (sleepMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sleepMs);
    // Busy for `busy_ms` of this thread's CPU time: a synchronous search holds its thread the same way.
    const cpuMs = (): number => {
      const { user, system } = process.threadCpuUsage();
      return (user + system) / 1000;
    };
    const until = cpuMs() + Number(request.params.busy_ms ?? 0);
    while (cpuMs() < until) {
      // Busy.
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
