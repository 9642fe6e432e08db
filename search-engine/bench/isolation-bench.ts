/**
 * Isolation benchmark (prints figures; not a test): the latency of an ordinary search and of
 * /health alone, then while three heavy multi_search requests (150 typo searches with full
 * highlighting) are queued, measured in the same run so the machine's load is the same for both.
 * The goal (an ordinary search within 200 ms while heavy requests run) is printed beside them.
 * The test (`test/isolation.test.ts`) proves the order (ordinary answered before the heavy ones
 * finish); this prints the time.
 *
 *   npx tsx bench/isolation-bench.ts [--size 5000] [--samples 20]   (from this folder)
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createGeneratedCollection, heavyRequest, ORDINARY_SEARCH, statsWhen } from '../test/support/heavy-load.js';
import { http, search, startTarget, type Target } from '../test/support/target.js';
import { fmt } from './bench-support.js';

const GOAL_MS = 200;

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1] ?? fallback) : fallback;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function sample(target: Target, collection: string, count: number): Promise<{ search: number[]; health: number[] }> {
  const result = { search: [] as number[], health: [] as number[] };
  for (let i = 0; i < count; i++) {
    result.search.push(await timed(() => search(target, collection, ORDINARY_SEARCH)));
    result.health.push(await timed(() => http(target.url, 'GET', '/health')));
  }
  return result;
}

const size = argument('size', 5000);
const samples = argument('samples', 20);
const target = await startTarget({ SEARCH_WORKERS: '2' });
try {
  const collection = await createGeneratedCollection(target, size);
  console.log(`isolation bench: ${size} generated documents, 2 workers, ${samples} samples each; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // Warm both workers' code paths (a cold first search is several times slower).
  await Promise.all([0, 1, 2, 3].map(() => search(target, collection, ORDINARY_SEARCH)));
  const alone = await sample(target, collection, samples);
  const stopHeavy = new AbortController();
  let heavyDone = 0;
  const heavy = Array.from({ length: 3 }, () => heavyRequest(target, collection, stopHeavy.signal).then(() => heavyDone++));
  let loaded: { search: number[]; health: number[] };
  try {
    await statsWhen(target, (stats) => stats.queued > 50);
    loaded = await sample(target, collection, samples);
  } finally {
    stopHeavy.abort();
    await Promise.allSettled(heavy);
  }
  const row = (name: string, values: number[]): string => `${name.padEnd(34)} p50 ${fmt(quantile(values, 0.5), 1).padStart(7)}  p90 ${fmt(quantile(values, 0.9), 1).padStart(7)}  max ${fmt(Math.max(...values), 1).padStart(7)} ms`;
  console.log(row('ordinary search alone', alone.search));
  console.log(row('ordinary search, heavy queued', loaded.search));
  console.log(row('/health alone', alone.health));
  console.log(row('/health, heavy queued', loaded.health));
  const p90 = quantile(loaded.search, 0.9);
  console.log(
    `goal: ordinary search p90 under heavy load < ${GOAL_MS} ms: ${p90 < GOAL_MS ? 'met' : 'missed'} (${fmt(p90, 1)} ms; ${fmt(p90 / quantile(alone.search, 0.9), 2)}× its p90 alone); ` +
      `heavy requests finished during the samples: ${heavyDone}${heavyDone > 0 ? ' (the loaded figures are partly unloaded)' : ''}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
} finally {
  await target.close();
}
