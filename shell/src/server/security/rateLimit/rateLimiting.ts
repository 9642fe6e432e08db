import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyRateLimit, { type FastifyRateLimitStoreCtor, type RateLimitOptions } from '@fastify/rate-limit';
import type { RateLimitPolicy } from './rateLimitPolicies.js';

/** Code of the JSON error of a refused request. */
export const RATE_LIMITED_CODE = 'rate-limited';

/** The error a limited route throws: 429; the shell's handlers turn it into JSON or a page. */
export class RateLimitedError extends Error {
  readonly statusCode = 429;
  readonly code = RATE_LIMITED_CODE;
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many requests from your address; try again in ${retryAfterSeconds} s`);
    this.name = 'RateLimitedError';
  }
}

/**
 * Registers `@fastify/rate-limit` for the routes that opt in with `rateLimitConfig(...)` (none
 * is limited by default). `store`: the shared database store; without one the library's
 * in-memory LRU store is used (one process only, e.g. in tests).
 */
export async function registerRateLimiting(app: FastifyInstance, store?: FastifyRateLimitStoreCtor): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    ...(store ? { store } : {}),
    errorResponseBuilder: (_request, context) => new RateLimitedError(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}

/**
 * Route config that limits a route by `policy`, per client address (`request.ip`: the socket
 * peer, or the address a trusted proxy reports, see `TRUST_PROXY`) plus what `scope` adds
 * (e.g. a path parameter's value). Runs in `onRequest`, after the route's own cheaper `onRequest` checks.
 */
export function rateLimitConfig(policy: RateLimitPolicy, scope?: (request: FastifyRequest) => string): { rateLimit: RateLimitOptions } {
  return {
    rateLimit: {
      max: policy.max,
      timeWindow: policy.windowMs,
      keyGenerator: (request) => (scope ? `${request.ip}|${scope(request)}` : request.ip),
    },
  };
}
