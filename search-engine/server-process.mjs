// How the search server process is run, wherever it is started from: the search engine's own
// supervisor (src/supervisor/supervise-search-server.ts) and the site's stack (tooling/stack). Plain
// JavaScript so the stack runs it without a TypeScript loader.

/**
 * glibc malloc settings for the server process (a caller's own values win). Its worker threads
 * build posting lists by growing typed arrays; with glibc's defaults (one malloc arena per thread,
 * a dynamic mmap threshold) the freed buffers stay resident: measured at 100k articles with two
 * workers, 916 MB resident without these settings and 785 MB with them
 * (`measure/server-memory.ts`). Ignored where the C library is not glibc.
 */
export const SERVER_MALLOC_ENV = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '1048576',
});

/**
 * V8 flags of the server process (every isolate in it: the HTTP thread and the workers).
 * `--heap-growing-percent=50`: after a full collection the old generation may grow by half of
 * what survived before the next one starts, instead of V8's dynamic factor of up to 4×; searches
 * promote short-lived garbage (hits, highlights) and the workers' heaps grew by 40–100 MB under
 * load. `--max-semi-space-size=2`: the HTTP thread's young generation (the workers set their own,
 * `SEARCH_WORKER_YOUNG_GENERATION_MB`); it only routes and writes bytes. Measured at 100k articles
 * with two workers after the benchmark's queries (package README, "Memory under load"): server
 * RSS 664–683 MB without, 593 MB with them, CPU per query unchanged within the noise; with 20 %
 * instead of 50 % memory was the same and the GC threads' CPU per query doubled.
 */
export const SERVER_NODE_FLAGS = Object.freeze(['--max-semi-space-size=2', '--heap-growing-percent=50']);

/** The path the server answers without a key (`GET /health`): the supervisors' health check. */
export const SERVER_HEALTH_PATH = '/health';

/** How long a SIGTERM'd server may take to fold its change log before it is killed. */
export const SERVER_STOP_TIMEOUT_MS = 10_000;
