import { DURATION_BUCKETS_SECONDS, histogram } from '@khs/observability';

/** Storage call buckets, seconds: SQLite answers in microseconds, PostgreSQL in milliseconds. */
const STORAGE_BUCKETS_SECONDS = [0.0001, 0.0005, 0.001, ...DURATION_BUCKETS_SECONDS];

const storageCallDuration = () =>
  histogram({
    name: 'khs_storage_call_duration_seconds',
    help: "A team service's storage calls, seconds, by service, repository method (`surveys.recordVote`) and outcome (ok, error).",
    labelNames: ['service', 'operation', 'outcome'],
    buckets: STORAGE_BUCKETS_SECONDS,
  });

/**
 * The repositories with every method call timed into `khs_storage_call_duration_seconds` (sync
 * calls, SQLite's, and async ones alike). Labels are the repository's key and method name: a fixed set.
 */
export function timedRepositories<Repositories extends object>(service: string, repositories: Repositories): Repositories {
  const duration = storageCallDuration();
  const timed: Record<string, unknown> = {};
  for (const [key, repository] of Object.entries(repositories)) {
    timed[key] = typeof repository === 'object' && repository !== null ? timedMethods(repository as object, (method) => ({ service, operation: `${key}.${method}` }), duration) : repository;
  }
  return timed as Repositories;
}

function timedMethods<T extends object>(target: T, labelsOf: (method: string) => { service: string; operation: string }, duration: ReturnType<typeof storageCallDuration>): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let timed = wrapped.get(property);
      if (!timed) {
        const labels = labelsOf(property);
        timed = function (this: unknown, ...args: unknown[]) {
          const started = performance.now();
          const done = (outcome: 'ok' | 'error') => duration.observe({ ...labels, outcome }, (performance.now() - started) / 1000);
          let result: unknown;
          try {
            result = (value as (...a: unknown[]) => unknown).apply(this === receiver ? object : this, args);
          } catch (error) {
            done('error');
            throw error;
          }
          if (result instanceof Promise) {
            return result.then(
              (resolved) => (done('ok'), resolved),
              (error: unknown) => {
                done('error');
                throw error;
              },
            );
          }
          done('ok');
          return result;
        };
        wrapped.set(property, timed);
      }
      return timed;
    },
  });
}
