import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The one JSON body of every API error answer, the shell's and every team service's: what went
 * wrong in words (`error`; for a 5xx never the details) and a stable `code` a client can act on.
 */
export interface ApiErrorBody {
  error: string;
  code: string;
}

/** An error as Fastify, its plugins and our own code throw them. */
export interface ThrownError {
  message: string;
  statusCode?: number;
  code?: string;
}

/** Codes of answers whose error carries none of its own, by status. */
const CODE_OF_STATUS: Record<number, string> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  408: 'request-timeout',
  413: 'body-too-large',
  414: 'uri-too-long',
  415: 'unsupported-media-type',
  422: 'unprocessable',
  429: 'rate-limited',
  431: 'headers-too-large',
  503: 'service-unavailable',
  504: 'service-timeout',
};

/** The code of an answer with `status` whose error names none. */
export function codeOfStatus(status: number): string {
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal-error' : 'bad-request');
}

/** Status (a 4xx/5xx the error names, else 500) and body of an error's answer. */
export function apiErrorOf(error: ThrownError): { status: number; body: ApiErrorBody } {
  const named = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600;
  const status = named ? error.statusCode! : 500;
  // An unexpected error's own code (a driver's, Node's) says nothing a client can act on.
  const code = named && typeof error.code === 'string' && error.code.length > 0 ? error.code : codeOfStatus(status);
  return { status, body: { error: status >= 500 ? 'Internal server error' : error.message, code } };
}

/** Sends an error's answer as JSON (`no-store`). */
export function sendApiError(reply: FastifyReply, error: ThrownError): FastifyReply {
  const { status, body } = apiErrorOf(error);
  return reply.code(status).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

/**
 * Fastify's `frameworkErrors` option: the errors its router answers before any route or error
 * handler runs (a path that is not valid URL encoding, 400 `FST_ERR_BAD_URL`; a path parameter
 * longer than `maxParamLength`, 414 `FST_ERR_MAX_PARAM_LENGTH`) in the one JSON shape.
 */
export function jsonFrameworkErrors(error: ThrownError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendApiError(reply, error);
}

/** What Node's HTTP parser failed on, as status, text and code. */
function clientErrorAnswer(code: string | undefined): [status: number, error: string, code: string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'The request did not arrive in time', 'request-timeout'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'The request headers (address included) are too large', 'headers-too-large'];
  return [400, 'The request could not be read', 'bad-request'];
}

/**
 * Fastify's `clientErrorHandler` option: a request Node's HTTP parser could not read (malformed,
 * headers too large) or that did not arrive within the server's `requestTimeout` gets the one JSON
 * shape (written on the socket: no route runs), then the connection is closed.
 */
export function jsonClientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message, code] = clientErrorAnswer(error.code);
  const body = JSON.stringify({ error: message, code } satisfies ApiErrorBody);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
  // Closed once written: nothing more is read from this client.
  socket.destroySoon();
}
