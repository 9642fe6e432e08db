import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../src/api-error.js';
import { DEFAULT_WORKER_YOUNG_GENERATION_MB, type SearchOutcome, WorkerPool } from '../src/pool/worker-pool.js';

const STAND_IN = join(dirname(fileURLToPath(import.meta.url)), 'support', 'stand-in-worker.ts');

describe('worker pool: scheduling, time budget, back-pressure, replacement', () => {
  let pool: WorkerPool | undefined;
  let dataDir: string | undefined;
  const logs: string[] = [];
  afterEach(async () => {
    await pool?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    logs.length = 0;
  });

  async function startPool(options: { size?: number; queueLimit?: number; searchBudgetMs?: number; youngGenerationMb?: number } = {}): Promise<WorkerPool> {
    dataDir = mkdtempSync(join(tmpdir(), 'pool-'));
    pool = new WorkerPool({ dataDir, size: options.size ?? 2, queueLimit: options.queueLimit ?? 100, searchBudgetMs: options.searchBudgetMs ?? 5000, log: (line) => logs.push(line), workerPath: STAND_IN, youngGenerationMb: options.youngGenerationMb });
    await pool.start();
    return pool;
  }

  const task = (params: Record<string, string>) => ({ collection: 'c', params, maxResultBytes: 1_000_000 });
  const parsed = (outcome: SearchOutcome | undefined) => (outcome?.ok ? JSON.parse(Buffer.from(outcome.body).toString('utf8')) : outcome);

  it('starts every worker with the young-generation limit (default and configured)', async () => {
    // Two searches that each hold a worker for a while run on both workers.
    const both = async (started: WorkerPool) => (await started.search([task({ busy_ms: '150' }), task({ busy_ms: '150' })])).map(parsed);
    let answers = await both(await startPool());
    expect(new Set(answers.map((answer) => answer.thread)).size).toBe(2);
    expect(answers.map((answer) => answer.youngGenerationMb)).toEqual([DEFAULT_WORKER_YOUNG_GENERATION_MB, DEFAULT_WORKER_YOUNG_GENERATION_MB]);
    await pool?.close();
    answers = await both(await startPool({ youngGenerationMb: 4 }));
    expect(new Set(answers.map((answer) => answer.thread)).size).toBe(2);
    expect(answers.map((answer) => answer.youngGenerationMb)).toEqual([4, 4]);
  });

  it('with readers in the background, serves from the writer at once and the readers join', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pool-'));
    pool = new WorkerPool({ dataDir, size: 3, queueLimit: 100, searchBudgetMs: 5000, log: (line) => logs.push(line), workerPath: STAND_IN });
    await pool.start({ readersInBackground: true });
    expect(pool.size).toBe(1);
    const [first] = await pool.search([task({})]);
    expect(first?.ok).toBe(true);
    // Readers join in any order (a slot's array entry may be filled before a lower one): wait for
    // the pool's own word that all are built.
    const deadline = Date.now() + 10_000;
    while (!logs.some((line) => line.startsWith('search readers ready')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs.filter((line) => line.startsWith('search readers ready'))).toHaveLength(1);
    expect(pool.threadIds()).toHaveLength(3);
    expect(new Set(pool.threadIds()).size).toBe(3);
  });

  it('closing while readers are still being built leaves no thread behind', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pool-'));
    const closing = new WorkerPool({ dataDir, size: 3, queueLimit: 100, searchBudgetMs: 5000, log: (line) => logs.push(line), workerPath: STAND_IN });
    await closing.start({ readersInBackground: true });
    await closing.close();
    expect(closing.size).toBeLessThanOrEqual(1);
  });

  it('runs searches of one request on both workers at once', async () => {
    const started = await startPool();
    const outcomes = await started.search([task({ busy_ms: '300' }), task({ busy_ms: '300' })]);
    // Both went out in one dispatch, one to each thread (no wall-clock bound: the machine may be busy).
    expect(new Set(outcomes.map((o) => parsed(o).thread)).size).toBe(2);
  });

  it('keeps one worker free of bulk requests, so an ordinary search is served before them', async () => {
    const started = await startPool();
    let bulkDone = 0;
    const bulk = started.search(Array.from({ length: 10 }, () => task({ busy_ms: '100' }))).then((outcomes) => (bulkDone++, outcomes));
    const bulkToo = started.search(Array.from({ length: 10 }, () => task({ busy_ms: '100' }))).then((outcomes) => (bulkDone++, outcomes));
    expect(started.queueLength).toBeGreaterThan(0);
    // An order, not a time: answered while both bulk requests are still running (with bulk on
    // every worker it would wait for a 100 ms bulk search; first come, first served for all 20).
    const [ordinary] = await started.search([task({ q: 'ordinary' })]);
    expect(parsed(ordinary).q).toBe('ordinary');
    expect({ bulkDone, queued: started.queueLength > 0 }).toEqual({ bulkDone: 0, queued: true });
    expect((await bulk).every((o) => o.ok)).toBe(true);
    expect((await bulkToo).every((o) => o.ok)).toBe(true);
  });

  it('refuses with 503 when the queue is full, without dropping what is queued', async () => {
    const started = await startPool({ queueLimit: 5 });
    const queued = started.search(Array.from({ length: 5 }, () => task({ busy_ms: '50' })));
    let refused: unknown;
    try {
      started.search(Array.from({ length: 5 }, () => task({})));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(503);
    expect(started.counters.rejectedBusy).toBe(1);
    expect((await queued).every((o) => o.ok)).toBe(true);
  });

  it('ends a search over the time budget with 408 in its slot and replaces its worker', async () => {
    const started = await startPool({ searchBudgetMs: 1000 });
    const threadsBefore = started.threadIds();
    const [runaway, fine] = await started.search([task({ busy_ms: '5000' }), task({ q: 'fine' })]);
    expect(runaway).toEqual({ ok: false, status: 408, message: 'Search exceeded the time budget of 1000 ms.' });
    expect(parsed(fine).q).toBe('fine');
    const deadline = Date.now() + 10_000;
    while (started.counters.workerRestarts < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started.counters.searchTimeouts).toBe(1);
    expect(started.counters.workerRestarts).toBe(1);
    // Wait for the replacement, then both workers serve again.
    while (started.threadIds().filter((id) => !threadsBefore.includes(id)).length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcomes = await started.search([task({ busy_ms: '100' }), task({ busy_ms: '100' })]);
    expect(outcomes.every((o) => o.ok), JSON.stringify(outcomes)).toBe(true);
    expect(logs.filter((line) => line.includes('time budget'))).toHaveLength(1);
  });

  it('the time budget counts CPU time: a search that waits longer than the budget without using the CPU is answered', async () => {
    // A thread on a busy machine gets a fraction of a core: wall-clock time is not what a runaway spends.
    const started = await startPool({ searchBudgetMs: 300 });
    const [slow] = await started.search([task({ sleep_ms: '1200', q: 'slow' })]);
    expect(slow!.ok, JSON.stringify(slow)).toBe(true);
    expect(parsed(slow!).q).toBe('slow');
    expect(started.counters.searchTimeouts).toBe(0);
  });

  it('a worker that dies mid-search gives a 503 slot and is replaced', async () => {
    const started = await startPool();
    const [crashed] = await started.search([task({ crash: 'true' })]);
    expect(crashed).toEqual({ ok: false, status: 503, message: 'A search worker restarted; retry the request.' });
    const deadline = Date.now() + 10_000;
    while (started.counters.workerRestarts < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const outcomes = await started.search([task({ busy_ms: '50' }), task({ busy_ms: '50' })]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
  });

  it('applies a write on the writer, then on every reader, before it resolves', async () => {
    const started = await startPool({ size: 3 });
    const value = await started.write('createCollection', [{ name: 'x' }]);
    expect(value).toMatchObject({ method: 'createCollection' });
    const outcomes = await started.search([task({ busy_ms: '100' }), task({ busy_ms: '100' }), task({ busy_ms: '100' })]);
    expect(outcomes.map((o) => parsed(o).applied)).toEqual([1, 1, 1]);
  });
});
