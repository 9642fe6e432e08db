// The search server's Prometheus metrics and spans (`@khs/observability`): requests by route
// pattern, searches by kind, the pool's queue and workers, the index's size. Served at
// `GET /metrics` to the admin key, as `/stats.json` is.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DURATION_BUCKETS_SECONDS, endServerSpan, gauge, histogram, observeHttpRequest, runInSpan, startServerSpan, tracingEnabled } from '@khs/observability';
import type { WorkerPool } from '../pool/worker-pool.js';

/** Path segments kept in a route label as they are; any other (a collection, a document id, a set's name) is a parameter. */
const ROUTE_WORDS = new Set([
  'collections', 'documents', 'search', 'import', 'export', 'multi_search', 'health', 'stats.json', 'metrics', 'keys', 'aliases',
  'synonyms', 'synonym_sets', 'curation_sets', 'overrides', 'presets', 'analytics', 'rules', 'events', 'flush', 'debug', 'operations', 'items',
]);

/** The route pattern of a path (`/collections/:param/documents/search`): bounded, never a name or id; at most 6 segments. */
export function routeLabel(path: string): string {
  const segments = path.split('?')[0]!.split('/').filter(Boolean);
  if (segments.length > 6) return '/:too-deep';
  return `/${segments.map((segment) => (ROUTE_WORDS.has(segment) ? segment : ':param')).join('/')}`;
}

/** Counts the request and (with tracing on) runs `handle` in its server span; the shell's `traceparent` is continued. */
export function observeSearchRequest(req: IncomingMessage, res: ServerResponse, handle: () => Promise<void>): Promise<void> {
  observeHttpRequest(req, res, () => routeLabel(req.url ?? '/'));
  if (!tracingEnabled()) return handle();
  const span = startServerSpan(req.method ?? 'GET', routeLabel(req.url ?? '/'), req.headers, true, 'search');
  res.once('close', () => endServerSpan(span, res.statusCode));
  return runInSpan(span, handle);
}

/** Searches of one request on the pool, seconds, by kind: `search` (one), `multi_search`, `union`. */
let queryDuration: ReturnType<typeof searchDuration> | undefined;
function searchDuration() {
  return histogram({
    name: 'khs_search_query_duration_seconds',
    help: "Time one request's searches took on the worker pool (waiting included), seconds, by kind: search, multi_search, union.",
    labelNames: ['kind'],
    buckets: DURATION_BUCKETS_SECONDS,
  });
}

export function recordSearchQueries(kind: 'search' | 'multi_search' | 'union', seconds: number): void {
  (queryDuration ??= searchDuration()).observe({ kind }, seconds);
}

/** The pools whose gauges are read at a scrape (one per server in this process; tests run several). */
const watchedPools = new Set<WorkerPool>();

/** Reads `pool`'s queue, workers and index size at each scrape until `unwatch()`. */
export function watchPool(pool: WorkerPool): () => void {
  watchedPools.add(pool);
  gauge({
    name: 'khs_search_queue_length',
    help: 'Searches waiting for a worker.',
    collect() {
      this.set([...watchedPools].reduce((sum, watched) => sum + watched.queueLength, 0));
    },
  });
  gauge({
    name: 'khs_search_workers',
    help: 'Search workers serving.',
    collect() {
      this.set([...watchedPools].reduce((sum, watched) => sum + watched.size, 0));
    },
  });
  gauge({
    name: 'khs_search_index_documents',
    help: 'Documents in the index, by collection.',
    labelNames: ['collection'],
    async collect() {
      this.reset();
      for (const watched of watchedPools) {
        const collections = (await watched.read('list', []).catch(() => [])) as Array<{ name?: unknown; num_documents?: unknown }>;
        for (const collection of collections) if (typeof collection.name === 'string') this.set({ collection: collection.name }, Number(collection.num_documents ?? 0));
      }
    },
  });
  gauge({
    name: 'khs_search_index_bytes',
    help: "Typed-array index structures the search workers hold, bytes (each worker's copy).",
    async collect() {
      let bytes = 0;
      for (const watched of watchedPools) for (const memory of await watched.memory()) bytes += memory.arrayBuffersMb * 1048576;
      this.set(Math.round(bytes));
    },
  });
  return () => watchedPools.delete(pool);
}
