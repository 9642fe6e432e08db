import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createLogger, observeFastify, registerMetricsRoute } from '@khs/observability';
import { jsonClientErrorHandler, jsonFrameworkErrors, sendApiError, type ApiErrorBody } from './apiErrors.js';
import { ACCEPTED_REQUEST_CODING, UnsupportedRequestCoding, hasCodedBody } from './requestCoding.js';

/** JSON error body of every service answer that is not a success (the one shape, `apiErrors.ts`). */
export type ServiceError = ApiErrorBody;

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
  /** The operators' token that opens `GET /metrics` (Prometheus). Default `OPERATOR_TOKEN`; none: no `/metrics` (404). */
  operatorToken?: string | undefined;
}

/**
 * A team service's Fastify app: `GET /health` (`{ status: 'ok', service }`, 503 when the storage
 * check fails), JSON errors `{ error, code }` for everything that fails — the routes' own, Fastify's
 * (bad JSON 400, body over the limit 413, unknown type 415, unknown path 404, an unreadable URL 400,
 * a path parameter too long 414) and Node's parser's (malformed 400, headers too large 431, too slow
 * 408) — with the reason for a 4xx and none for a 5xx; a body limit; a request timeout so a
 * trickling client cannot hold a connection; a `Content-Encoding` other than identity refused with
 * 415 before the body is read. The service adds its routes to the returned app.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  // A logger asked for (LOG_LEVEL) writes the site's JSON lines (part, level, message, trace id).
  // A logger given a stream (tests) keeps writing its lines there.
  const logger = typeof options.logger === 'object' && options.logger !== null ? options.logger : undefined;
  const level = logger && 'level' in logger ? logger.level : undefined;
  const destination = logger && 'stream' in logger ? (logger.stream as Parameters<typeof createLogger>[0]['destination']) : undefined;
  const app = Fastify({
    ...(typeof level === 'string'
      ? { loggerInstance: createLogger({ part: options.name, level, ...(destination ? { destination } : {}) }) as FastifyBaseLogger }
      : { logger: options.logger ?? false }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    requestTimeout: 30_000,
    frameworkErrors: jsonFrameworkErrors,
    clientErrorHandler: jsonClientErrorHandler,
  });
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (!(error.statusCode && error.statusCode < 500)) request.log.error(error);
    return sendApiError(reply, error);
  });
  app.setNotFoundHandler((_request, reply) => sendApiError(reply, { statusCode: 404, message: 'Not found' }));
  // Request metrics and, with tracing on, a span continuing the shell's `traceparent` (the edge
  // drops a visitor's, so what comes here is the shell's).
  observeFastify(app, { part: options.name });
  registerMetricsRoute(app, 'operatorToken' in options ? options.operatorToken : process.env.OPERATOR_TOKEN?.trim() || undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (!hasCodedBody(request.headers)) return;
    reply.header('accept-encoding', ACCEPTED_REQUEST_CODING).header('connection', 'close');
    throw new UnsupportedRequestCoding();
  });
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
