import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { ACCEPTED_REQUEST_CODING, UnsupportedRequestCoding, announcesBody, hasCodedBody } from '@khs/team-service/request-coding';
import { LINGERING_CLOSE_BYTES, LINGERING_CLOSE_MS, REQUEST_BODY_TIMEOUT_MS } from './edgeLimits.js';

/** Error code of a body that did not arrive in time. */
export const BODY_TIMEOUT_CODE = 'request-timeout';

/** A request the edge refused because of how its body came; the app's (or route's) error handler answers it. */
export class RequestBodyRefused extends Error {
  constructor(
    readonly statusCode: 408,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RequestBodyRefused';
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's request body may take to arrive (ms). Default `REQUEST_BODY_TIMEOUT_MS`. */
    bodyTimeoutMs?: number;
  }
  interface FastifyRequest {
    /** Set when the body did not arrive within the route's body timeout (its reader got a 408 error). */
    bodyTimedOut?: boolean;
  }
}

/** `payload`, cut off with a 408 error when it has not ended within `timeoutMs`. */
function withDeadline(request: FastifyRequest, payload: Readable, timeoutMs: number): Readable {
  const guarded = new PassThrough();
  const timer = setTimeout(() => {
    request.bodyTimedOut = true;
    payload.unpipe(guarded);
    guarded.destroy(new RequestBodyRefused(408, BODY_TIMEOUT_CODE, `The request body did not arrive within ${timeoutMs / 1000} s`));
  }, timeoutMs);
  const stop = () => clearTimeout(timer);
  payload.once('end', stop);
  payload.once('close', stop);
  guarded.once('close', stop);
  payload.once('error', (error) => {
    stop();
    guarded.destroy(error);
  });
  payload.pipe(guarded);
  return guarded;
}

/**
 * Closes the connection of `request`, answered before its body ended, only once the client has
 * sent the rest (dropped unread), or after `LINGERING_CLOSE_MS` / `LINGERING_CLOSE_BYTES`. Node's
 * own close (end, then destroy once the answer is written) would answer the bytes still coming
 * with a TCP reset, and a client that had not yet read the refusal loses it (its system drops
 * what it had received): run s6c's 413 to a 320 KiB chunked survey body "closed with no answer".
 */
function closeAfterLingering(request: IncomingMessage): void {
  const socket = request.socket;
  // Not a network socket (`app.inject`'s): nothing to close.
  if (request.complete || typeof socket?.destroy !== 'function' || socket.destroyed) return;
  // Undo `destroySoon`'s destroy once the answer is written; the end (FIN) it sent stays.
  socket.removeListener('finish', socket.destroy);
  const close = () => socket.destroy();
  const timer = setTimeout(close, LINGERING_CLOSE_MS);
  socket.once('close', () => clearTimeout(timer));
  let dropped = 0;
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGERING_CLOSE_BYTES) close();
  });
  request.once('end', close);
  request.once('error', close);
}

/**
 * The edge's rules for every request body (values in `edgeLimits.ts`):
 * - a body in a `Content-Encoding` other than `identity` (`@khs/team-service/request-coding`: why) is refused with 415 (`Accept-Encoding: identity`,
 *   RFC 7694) from the headers, before any of the body is read;
 * - a body must have arrived within the route's `bodyTimeoutMs` (config; default
 *   `REQUEST_BODY_TIMEOUT_MS`), else its reader gets a 408 error (JSON, or the route's own page);
 * - a refusal sent while the body is still unread closes the connection, so the rest of it is
 *   never mistaken for the next request; the close waits until the client stopped sending (bounded:
 *   `closeAfterLingering`), so the refusal is not lost to a reset.
 * Registered without encapsulation: it covers every route.
 */
async function requestBodiesPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (hasCodedBody(request.headers)) {
      reply.header('accept-encoding', ACCEPTED_REQUEST_CODING);
      throw new UnsupportedRequestCoding();
    }
  });
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!announcesBody(request.headers)) return payload;
    const guarded = withDeadline(request, payload, request.routeOptions.config?.bodyTimeoutMs ?? REQUEST_BODY_TIMEOUT_MS);
    // Answered before the body was read (a refusal, a failed forward): the deadline has no reader left.
    reply.raw.once('close', () => guarded.destroy());
    return guarded;
  });
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400 && announcesBody(request.headers) && !request.raw.complete) {
      reply.header('connection', 'close');
      // After Node's own handler of the answer's end, which starts its close.
      reply.raw.once('finish', () => closeAfterLingering(request.raw));
    }
  });
}

export const requestBodies = fastifyPlugin(requestBodiesPlugin, { name: 'khs-request-bodies' });
