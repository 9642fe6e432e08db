import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitCounterRepository } from '../../database/index.js';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * A `@fastify/rate-limit` store on the database's counters (`rate_limit_counters`): with
 * PostgreSQL every shell instance counts into the same rows, so a client cannot multiply its
 * allowance by reaching several instances. Each route's counters get their own key prefix
 * (method + URL pattern), as the library's own stores do.
 */
export function databaseRateLimitStore(counters: RateLimitCounterRepository): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'rl:',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      counters.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ hits, msLeft }) => callback(null, { current: hits, ttl: msLeft }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The library passes the merged limit options with the route under `routeInfo`.
      const route = (routeOptions as unknown as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${method}${route?.url ?? ''}|`);
    }
  }
  return DatabaseRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
