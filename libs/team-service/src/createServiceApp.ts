import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';

/** JSON error body of every service answer that is not a success. */
export interface ServiceError {
  error: string;
  code?: string;
}

/** Options of `createServiceApp`. */
export interface ServiceAppOptions {
  /** The service's name, answered by `/health`. */
  name: string;
  /** Largest request body (bytes). Default 64 KiB. */
  bodyLimit?: number;
  /** Fastify logger setting. Default off. */
  logger?: FastifyServerOptions['logger'];
  /** Answers whether the service's storage is reachable; `/health` says 503 when it throws. */
  checkStorage?: () => Promise<void>;
}

/**
 * A team service's Fastify app: `GET /health` (`{ status: 'ok', service }`, 503 when the storage
 * check fails), JSON errors for everything that fails (4xx with the reason, 5xx without details), a
 * body limit and a request timeout so a trickling client cannot hold a connection. The service adds
 * its routes to the returned app.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: options.bodyLimit ?? 64 * 1024, requestTimeout: 30_000 });
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error(error);
    const body: ServiceError = { error: status >= 500 ? 'Internal server error' : error.message, ...(error.code ? { code: error.code } : {}) };
    return reply.code(status).header('cache-control', 'no-store').send(body);
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).header('cache-control', 'no-store').send({ error: 'Not found' } satisfies ServiceError));
  app.get('/health', async (_request, reply) => {
    try {
      await options.checkStorage?.();
    } catch {
      return reply.code(503).header('cache-control', 'no-store').send({ status: 'unavailable', service: options.name });
    }
    return reply.header('cache-control', 'no-store').send({ status: 'ok', service: options.name });
  });
  return app;
}
