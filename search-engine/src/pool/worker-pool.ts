import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../api-error.js';
import type { AnalyticsOperation, NotedSearch, SearchNote } from '../analytics/analytics-manager.js';
import type { EngineMethod, UnionTask, WorkerMemory, WorkerRequest, WorkerResponse, WorkerStartData } from './worker-protocol.js';

/** Outcome of one search: its JSON as UTF-8 bytes (from the worker, transferred), or the error for its slot. */
export type SearchOutcome = { ok: true; body: Uint8Array; /** For the writer's analytics (see `searchNote`). */ note?: SearchNote } | { ok: false; status: number; message: string };

/** One search to run: the merged raw parameters go to the worker unchanged. */
export interface SearchTask {
  collection: string | undefined;
  params: Record<string, string>;
  maxResultBytes: number;
  /** A union runs all its searches in one worker (then `params` is the request's paging). */
  union?: UnionTask;
}

/** Counters the pool keeps (read by `/stats.json`). */
export interface PoolCounters {
  searches: number;
  searchTimeouts: number;
  rejectedBusy: number;
  workerRestarts: number;
}

export interface WorkerPoolOptions {
  /** Folder with the collections; the writer keeps it, readers load it. */
  dataDir: string;
  /** Number of worker threads (each holds a copy of the index). */
  size: number;
  /** Searches that may wait for a worker; beyond it `search` throws 503. */
  queueLimit: number;
  /** CPU time of its worker thread a search may use (not wall-clock time); past it the search ends with an error in its slot and its worker is replaced. */
  searchBudgetMs: number;
  log: (message: string) => void;
  /** File of a worker module speaking `worker-protocol.ts`. Default the search worker (tests use stand-ins). */
  workerPath?: string;
  /** Each worker's V8 young generation (MB, `resourceLimits.maxYoungGenerationSizeMb`). Default `DEFAULT_WORKER_YOUNG_GENERATION_MB`. */
  youngGenerationMb?: number;
  /** Analytics events one client address may post per minute (the writer's `AnalyticsManager`). Default 0: no limit. */
  analyticsMinuteRateLimit?: number;
}

/**
 * Young generation per worker thread (MB). A search's garbage (candidate lists, hits, highlights,
 * the answer's JSON) dies within the search; a young generation that holds a few searches' worth
 * lets scavenges free it instead of promoting it into the old generation, which is what grew the
 * workers' heaps under load (measured: see the package README, "Memory under load").
 */
export const DEFAULT_WORKER_YOUNG_GENERATION_MB = 8;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Set for searches: ends it with an error when the budget runs out. */
  timer?: NodeJS.Timeout;
  /** Resolve with the whole result message (the writer's placements travel with it). */
  wholeMessage?: boolean;
}

interface QueuedSearch {
  task: SearchTask;
  resolve(outcome: SearchOutcome): void;
}

/** The searches of one request; the scheduler serves requests fairly, not searches first-come. */
interface Lane {
  tasks: QueuedSearch[];
  started: number;
  /** A request with many searches: it may not take the last free worker. */
  bulk: boolean;
}

/** Noted searches are handed to the writer at least this often (ms)… */
const NOTE_BATCH_MS = 25;
/** …or once this many are gathered. */
const NOTE_BATCH_SIZE = 256;

/** Requests with more searches than this are bulk requests. */
export const BULK_REQUEST_SEARCHES = 4;

class PoolWorker {
  ready = false;
  /** Runs a search of a bulk request. */
  runningBulk = false;
  /** When the last bulk search started, and until when this worker rests from bulk work. */
  bulkStartedAt = 0;
  bulkRestUntil = 0;
  readonly pending = new Map<number, Pending>();
  readyPromise: Promise<void>;
  private markReady!: () => void;
  private failReady!: (error: Error) => void;

  constructor(
    readonly thread: Worker,
    readonly role: 'writer' | 'reader',
  ) {
    this.readyPromise = new Promise((resolve, reject) => {
      this.markReady = resolve;
      this.failReady = reject;
    });
    // A worker that dies while loading must not leave an unhandled rejection behind.
    this.readyPromise.catch(() => {});
  }

  onReady(): void {
    this.ready = true;
    this.markReady();
  }

  onLoadFailed(error: Error): void {
    this.failReady(error);
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }
}

/** The search worker module (a path: jsdom test environments replace the global `URL`). */
function searchWorkerPath(): string {
  const here = fileURLToPath(import.meta.url);
  return join(dirname(here), `search-worker${here.endsWith('.ts') ? '.ts' : '.js'}`);
}

/**
 * Starts a worker thread. Workers from TypeScript sources register tsx's loader first (Node 20
 * does not apply loader hooks from `--import` in worker execArgv to the worker's entry module).
 */
function startThread(path: string, workerData: WorkerStartData, youngGenerationMb: number): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: youngGenerationMb };
  if (!path.endsWith('.ts')) return new Worker(path, { workerData, resourceLimits });
  const tsxApi = pathToFileURL(join(dirname(createRequire(path).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(path).href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

/**
 * A pool of search worker threads, each with its own index. Worker 0 is the writer: it loads
 * the data folder, keeps the stored documents in a shared arena (`DocumentArena`), applies and
 * persists a change first; then every reader applies the same call (with the writer's document
 * placements), and only then is the change acknowledged. Readers are built from the writer's
 * collections and arena, so they hold no copy of the documents. Searches are scheduled fairly across
 * requests (the request with the fewest started searches goes next), so a
 * request with 50 heavy searches cannot hold back an ordinary one.
 */
export class WorkerPool {
  readonly counters: PoolCounters = { searches: 0, searchTimeouts: 0, rejectedBusy: 0, workerRestarts: 0 };
  private readonly workers: PoolWorker[] = [];
  private readonly lanes: Lane[] = [];
  private queued = 0;
  private nextId = 1;
  private closed = false;
  /** Serialises writes and worker loads, so a loading worker never misses or doubles a change. */
  private exclusiveTail: Promise<unknown> = Promise.resolve();
  private restartDelayMs = 0;
  private wakeTimer: NodeJS.Timeout | undefined;
  /** Searches waiting to be handed to the writer's analytics (see `noteSearches`). */
  private readonly notedSearches: NotedSearch[] = [];
  private noteTimer: NodeJS.Timeout | undefined;
  /** The current writer's document arena (from its `ready` message), shared with the readers. */
  private arena: SharedArrayBuffer | undefined;

  constructor(private readonly options: WorkerPoolOptions) {}

  /**
   * Starts the workers. The writer loads the data folder (folding a waiting change log), then the
   * readers are built from its collections and arena. Resolves when all are ready, or with
   * `readersInBackground` as soon as the writer is: it serves alone meanwhile (a restart is then
   * as fast as one worker's load), and the readers join as they are built; writes wait for them.
   */
  async start({ readersInBackground = false }: { readersInBackground?: boolean } = {}): Promise<void> {
    const buildReaders = () => Promise.all(Array.from({ length: this.options.size - 1 }, (_, i) => this.rebuildReader(i + 1)));
    try {
      await this.exclusive(async () => {
        await this.spawn(0, 'writer').readyPromise;
        if (!readersInBackground) await buildReaders();
      });
    } catch (error) {
      // A data folder that cannot be loaded fails the start (the process supervisor retries with back-off).
      await this.close();
      throw error;
    }
    if (readersInBackground && this.options.size > 1) {
      const started = Date.now();
      void this.exclusive(buildReaders).then(
        () => this.options.log(`search readers ready ${Date.now() - started} ms after the writer: ${this.workers.length} worker(s) serving`),
        // The writer keeps serving alone; a reader that failed is rebuilt when its slot is next restored.
        (error: unknown) => this.options.log(`search readers could not be built (${(error as Error)?.message ?? error}); the writer serves alone`),
      );
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Thread ids of the workers (tests end one to see it replaced). */
  threadIds(): number[] {
    return this.workers.map((w) => w.thread.threadId);
  }

  /** Searches waiting for a worker. */
  get queueLength(): number {
    return this.queued;
  }

  /**
   * Runs the searches of one request; each slot gets its result or error. Throws ApiError(503)
   * at once when they do not fit in the queue.
   */
  search(tasks: SearchTask[], signal?: AbortSignal): Promise<SearchOutcome[]> {
    if (this.closed) throw new ApiError(503, 'The search server is shutting down.');
    if (this.queued + tasks.length > this.options.queueLimit) {
      this.counters.rejectedBusy++;
      throw new ApiError(503, 'Not Ready or Lagging: all search workers are busy and the queue is full; retry shortly.');
    }
    // A union's searches run in one slot but cost as many searches.
    const weight = tasks.reduce((sum, task) => sum + (task.union?.searches.length ?? 1), 0);
    const lane: Lane = { tasks: [], started: 0, bulk: weight > BULK_REQUEST_SEARCHES };
    const outcomes = tasks.map(
      (task) =>
        new Promise<SearchOutcome>((resolve) => {
          lane.tasks.push({ task, resolve });
        }),
    );
    this.queued += tasks.length;
    this.lanes.push(lane);
    // A client that went away does not keep its remaining searches in the queue.
    signal?.addEventListener('abort', () => {
      const index = this.lanes.indexOf(lane);
      if (index < 0) return;
      this.lanes.splice(index, 1);
      this.queued -= lane.tasks.length;
      for (const queued of lane.tasks.splice(0)) queued.resolve({ ok: false, status: 499, message: 'The client closed the request.' });
    });
    this.pump();
    return Promise.all(outcomes);
  }

  /** Calls a reading engine method on the writer (admin reads). */
  async read(method: EngineMethod, args: unknown[]): Promise<unknown> {
    const writer = this.workers[0];
    if (!writer) throw new ApiError(503, 'The search server is starting.');
    await writer.readyPromise;
    return this.call(writer, { type: 'call', id: 0, method, args });
  }

  /**
   * Calls the writer's analytics (`AnalyticsManager`): the writer alone holds them. Searches noted
   * before the call are handed over first (one port, in order), so a flush or status sees them.
   */
  async analytics(operation: AnalyticsOperation, args: unknown[]): Promise<unknown> {
    const writer = this.workers[0];
    if (!writer) throw new ApiError(503, 'The search server is starting.');
    await writer.readyPromise;
    this.sendNotedSearches();
    return this.call(writer, { type: 'analytics', id: 0, operation, args });
  }

  /**
   * Hands searches (answered by any worker) to the writer's analytics, without waiting: gathered
   * for up to NOTE_BATCH_MS or NOTE_BATCH_SIZE searches, so the writer thread is woken once per
   * batch rather than once per search. While the writer is being replaced they are dropped, as a
   * restarting Typesense loses what it had not flushed.
   */
  noteSearches(searches: NotedSearch[]): void {
    if (searches.length === 0 || this.closed) return;
    this.notedSearches.push(...searches);
    if (this.notedSearches.length >= NOTE_BATCH_SIZE) this.sendNotedSearches();
    else if (!this.noteTimer) {
      this.noteTimer = setTimeout(() => this.sendNotedSearches(), NOTE_BATCH_MS);
      this.noteTimer.unref();
    }
  }

  private sendNotedSearches(): void {
    if (this.noteTimer) clearTimeout(this.noteTimer);
    this.noteTimer = undefined;
    const searches = this.notedSearches.splice(0);
    const writer = this.workers[0];
    if (searches.length === 0 || !writer?.ready) return;
    writer.thread.postMessage({ type: 'noteSearches', searches } satisfies WorkerRequest);
  }

  /** Applies a changing engine call on the writer (which persists it), then on every reader. */
  write(method: EngineMethod, args: unknown[]): Promise<unknown> {
    return this.exclusive(async () => {
      const writer = this.workers[0];
      if (!writer) throw new ApiError(503, 'The search server is starting.');
      await writer.readyPromise;
      const answer = (await this.call(writer, { type: 'call', id: 0, method, args }, undefined, true)) as { value?: unknown; placements?: number[]; arena?: SharedArrayBuffer };
      if (answer.arena) {
        // The writer compacted its arena: readers are rebuilt from it (the change included).
        this.arena = answer.arena;
        await Promise.all(this.workers.slice(1).map((_, i) => this.rebuildReader(i + 1)));
        return answer.value;
      }
      const placements = answer.placements ?? [];
      await Promise.all(
        this.workers
          .filter((w) => w.role === 'reader' && w.ready)
          .map((reader) =>
            this.call(reader, { type: 'call', id: 0, method, args, placements }).catch(() => {
              // A reader that fails or dies here is rebuilt from the writer.
            }),
          ),
      );
      return answer.value;
    });
  }

  /** Each ready worker's own memory (V8 heap, array buffers); a busy worker answers after its search. */
  async memory(): Promise<WorkerMemory[]> {
    const ask = (worker: PoolWorker): Promise<WorkerMemory | undefined> =>
      new Promise((resolve) => {
        const id = this.nextId++;
        // A worker busy with a long search (or a stand-in that does not answer) is left out after 1 s.
        const timer = setTimeout(() => {
          worker.pending.delete(id);
          resolve(undefined);
          this.pump();
        }, 1000);
        const settle = (value: unknown): void => {
          clearTimeout(timer);
          resolve(value as WorkerMemory | undefined);
        };
        worker.pending.set(id, { resolve: settle, reject: () => settle(undefined) });
        worker.thread.postMessage({ type: 'memory', id } satisfies WorkerRequest);
      });
    const answers = await Promise.all(this.workers.filter((w) => w?.ready).map(ask));
    return answers.filter((a): a is WorkerMemory => a !== undefined);
  }

  /** Folds the writer's change logs into snapshots and stops every worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const writer = this.workers[0];
    await this.exclusive(async () => {
      if (writer?.ready) await this.call(writer, { type: 'flush', id: 0 }).catch(() => {});
    });
    await Promise.all(this.workers.map((w) => w.thread.terminate()));
    for (const lane of this.lanes.splice(0)) for (const queued of lane.tasks) queued.resolve({ ok: false, status: 503, message: 'The search server is shutting down.' });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.exclusiveTail.then(work, work);
    this.exclusiveTail = run.catch(() => {});
    return run;
  }

  /**
   * Starts a reader from the current writer's collections and arena (call it inside `exclusive`,
   * so no change is missed or applied twice). The slot's old reader, if any, serves until the new
   * one is ready, then it is stopped.
   */
  private async rebuildReader(slot: number): Promise<void> {
    const writer = this.workers[0];
    if (!writer) throw new Error('no writer to build a reader from');
    await writer.readyPromise;
    const restore = (await this.call(writer, { type: 'call', id: 0, method: 'exportCollections', args: [] })) as WorkerStartData['restore'];
    const previous = this.workers[slot];
    if (this.closed) return;
    const replacement = this.spawn(slot, 'reader', { arena: this.arena, restore }, false);
    await replacement.readyPromise;
    if (this.closed) {
      // Closed while it loaded (a reader built in the background): it must not outlive the pool.
      await replacement.thread.terminate();
      return;
    }
    this.workers[slot] = replacement;
    this.pump();
    if (previous) {
      // Let a search it is running finish (the time budget still ends a runaway one).
      while (previous.busy && previous.ready) await new Promise((resolve) => setTimeout(resolve, 10));
      await previous.thread.terminate();
    }
  }

  private spawn(slot: number, role: 'writer' | 'reader', shared: Pick<WorkerStartData, 'arena' | 'restore'> = {}, install = true): PoolWorker {
    const data: WorkerStartData = { dataDir: this.options.dataDir, role, analyticsMinuteRateLimit: this.options.analyticsMinuteRateLimit, ...shared };
    const thread = startThread(this.options.workerPath ?? searchWorkerPath(), data, this.options.youngGenerationMb ?? DEFAULT_WORKER_YOUNG_GENERATION_MB);
    const worker = new PoolWorker(thread, role);
    if (install) this.workers[slot] = worker;
    thread.on('message', (message: WorkerResponse) => {
      if (message.type === 'ready') {
        if (role === 'writer') this.arena = message.arena;
        worker.onReady();
        this.options.log(`search worker ${slot} (${role}) ready: ${message.documents} documents loaded in ${message.loadMs} ms`);
        this.pump();
      } else if (message.type === 'log') {
        this.options.log(message.message);
      } else {
        const pending = worker.pending.get(message.id);
        if (!pending) return;
        worker.pending.delete(message.id);
        if (pending.timer) {
          clearTimeout(pending.timer);
          if (worker.runningBulk) {
            // Bulk work gets at most half of a worker's time: rest as long as the search took.
            const now = performance.now();
            worker.bulkRestUntil = now + (now - worker.bulkStartedAt);
          }
          worker.runningBulk = false;
        }
        if (message.ok) pending.resolve(pending.wholeMessage ? message : (message.body ?? message.value));
        else pending.reject(new ApiError(message.status, message.message));
        this.pump();
      }
    });
    thread.on('error', (error) => {
      this.options.log(`search worker ${slot} failed: ${error.message}`);
    });
    thread.on('exit', () => this.onExit(slot, worker));
    return worker;
  }

  private onExit(slot: number, worker: PoolWorker): void {
    const wasReady = worker.ready;
    worker.ready = false;
    worker.onLoadFailed(new Error('search worker exited while loading'));
    for (const pending of worker.pending.values()) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(new ApiError(503, 'A search worker restarted; retry the request.'));
    }
    worker.pending.clear();
    // A reader replaced by a rebuild (or a replacement that failed to load: see restoreSlot) is not the slot's.
    if (this.workers[slot] !== worker) return;
    if (this.closed) return;
    this.counters.workerRestarts++;
    // Back-off only for workers that die while loading (a broken data folder), not for replaced ones.
    this.restartDelayMs = wasReady ? 0 : Math.min(Math.max(this.restartDelayMs * 2, 250), 10_000);
    this.options.log(`search worker ${slot} stopped; starting a new one${this.restartDelayMs ? ` in ${this.restartDelayMs} ms` : ''}`);
    this.restoreSlot(slot, worker.role, this.restartDelayMs);
  }

  /** Starts a worker for a slot after `delayMs`; a reader that fails to load is retried with back-off. */
  private restoreSlot(slot: number, role: 'writer' | 'reader', delayMs: number): void {
    setTimeout(() => {
      if (this.closed) return;
      void this.exclusive(async () => {
        if (role === 'reader') return this.rebuildReader(slot);
        // A writer that fails to load exits and comes back here through onExit, with back-off.
        await this.spawn(slot, 'writer').readyPromise;
        // The new writer loaded the folder into a new arena (a writer that died inside a write may
        // also have persisted part of it): every reader is rebuilt from it, serving until then.
        await Promise.all(this.workers.slice(1).map((_, i) => this.rebuildReader(i + 1)));
      }).catch((error: unknown) => {
        if (this.closed || role !== 'reader') return;
        this.options.log(`search worker ${slot} could not be rebuilt (${(error as Error)?.message ?? String(error)}); retrying`);
        this.restoreSlot(slot, role, Math.min(Math.max(delayMs * 2, 250), 10_000));
      });
    }, delayMs).unref();
  }

  private call(worker: PoolWorker, request: WorkerRequest, budgetMs?: number, wholeMessage = false): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, wholeMessage };
      if (budgetMs !== undefined) {
        // The budget counts the worker thread's CPU time, not the wall clock: on a busy machine a
        // thread gets a fraction of a core, and a search of 100 ms can take seconds of wall-clock
        // time without being a runaway (it answered 408 at load 40). The timer only says when to
        // look: it is armed for the budget left, and a thread that used it all is a runaway.
        const cpuAtStart = worker.thread.cpuUsage();
        const lookAfter = (ms: number): void => {
          pending.timer = setTimeout(() => {
            // A busy event loop may run this timer late, after the answer already arrived: let
            // waiting messages be delivered first (they are handled before setImmediate callbacks).
            setImmediate(() => {
              if (worker.pending.get(id) !== pending) return;
              void Promise.all([cpuAtStart, worker.thread.cpuUsage()]).then(
                ([start, now]) => {
                  if (worker.pending.get(id) !== pending) return;
                  const usedMs = (now.user + now.system - start.user - start.system) / 1000;
                  if (usedMs >= budgetMs) expire();
                  else lookAfter(budgetMs - usedMs);
                },
                // The thread is gone: its exit rejects what it had pending.
                () => {},
              );
            });
          }, ms);
        };
        lookAfter(budgetMs);
        const expire = (): void => {
          worker.pending.delete(id);
          this.counters.searchTimeouts++;
          reject(new ApiError(408, `Search exceeded the time budget of ${budgetMs} ms.`));
          this.options.log(`a search exceeded the time budget of ${budgetMs} ms; replacing its worker`);
          void worker.thread.terminate();
        };
      }
      worker.pending.set(id, pending);
      worker.thread.postMessage({ ...request, id });
    });
  }

  /**
   * Hands queued searches to idle ready workers: the request with the fewest started searches
   * first, and bulk requests (more than BULK_REQUEST_SEARCHES searches) on at most all workers
   * but one and at most half of that worker's time, so an interactive search always finds a
   * worker within one ordinary search's time and the machine keeps room for the site.
   */
  private pump(): void {
    const bulkCapacity = Math.max(1, this.workers.length - 1);
    const now = performance.now();
    let restingUntil = Number.POSITIVE_INFINITY;
    for (const worker of this.workers) {
      if (!worker || !worker.ready || worker.busy) continue;
      const bulkRunning = this.workers.filter((w) => w?.runningBulk).length;
      const bulkAllowed = bulkRunning < bulkCapacity && worker.bulkRestUntil <= now;
      if (worker.bulkRestUntil > now) restingUntil = Math.min(restingUntil, worker.bulkRestUntil);
      let best: Lane | undefined;
      for (const lane of this.lanes) {
        if (lane.bulk && !bulkAllowed) continue;
        if (!best || lane.started < best.started) best = lane;
      }
      if (!best) continue;
      const queued = best.tasks.shift() as QueuedSearch;
      best.started++;
      if (best.tasks.length === 0) this.lanes.splice(this.lanes.indexOf(best), 1);
      this.queued--;
      this.counters.searches++;
      const { task } = queued;
      worker.runningBulk = best.bulk;
      if (best.bulk) worker.bulkStartedAt = now;
      // runningBulk is cleared where the result arrives, before the next pump.
      const finished = (outcome: SearchOutcome): void => queued.resolve(outcome);
      this.call(worker, { type: 'search', id: 0, collection: task.collection, params: task.params, maxResultBytes: task.maxResultBytes, union: task.union }, this.options.searchBudgetMs, true).then(
        (message) => {
          const { body, note } = message as { body: Uint8Array; note?: SearchNote };
          finished({ ok: true, body, note });
        },
        (error: unknown) =>
          finished(error instanceof ApiError ? { ok: false, status: error.status, message: error.message } : { ok: false, status: 500, message: 'Internal error.' }),
      );
    }
    // Bulk searches wait for a resting worker: look again when its rest ends.
    if (restingUntil !== Number.POSITIVE_INFINITY && this.lanes.some((lane) => lane.bulk) && !this.wakeTimer) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = undefined;
        this.pump();
      }, Math.max(1, Math.ceil(restingUntil - now) + 1));
      this.wakeTimer.unref();
    }
  }
}
