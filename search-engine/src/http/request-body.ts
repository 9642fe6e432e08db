import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../api-error.js';

/**
 * How request bodies must come: uncompressed, and whole within a deadline. The same rules as the
 * site's edge (`@khs/team-service/request-coding` and the shell's `REQUEST_BODY_TIMEOUT_MS`),
 * written here because this server is generic and runs alone.
 */

/** How long a request body may take to arrive after its headers, by default (ms). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/** The only request `Content-Encoding` accepted (or none). */
export const ACCEPTED_REQUEST_CODING = 'identity';

/** Whether a request announces a body (a `Content-Length` above 0, or a `Transfer-Encoding`). */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/**
 * Whether a request carries a body in a coding other than identity. Such bodies are refused with
 * 415 from the headers alone: no browser or Typesense client compresses what it sends, and decoding
 * would need a second limit on the decoded size (a small gzip body inflates a thousandfold).
 */
export function hasCodedBody(headers: IncomingHttpHeaders): boolean {
  const header = headers['content-encoding'];
  if (!announcesBody(headers) || header === undefined) return false;
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .some((coding) => coding !== '' && coding !== ACCEPTED_REQUEST_CODING);
}

/** The 415 answer's error (send `Accept-Encoding: identity` with it, RFC 7694). */
export function unsupportedCoding(): ApiError {
  return new ApiError(415, 'Request bodies are accepted without Content-Encoding (uncompressed) only.');
}

const deadlines = new WeakMap<IncomingMessage, AbortSignal>();

/**
 * Starts the body deadline of a request that announces a body: when the body has not wholly arrived
 * `timeoutMs` after the headers, its reader (`bodyDeadline`) fails with 408; an answer already sent
 * (a refusal, a route that does not read the body) is not followed by waiting for the rest: the
 * connection is closed once the answer is out.
 */
export function startBodyDeadline(req: IncomingMessage, res: ServerResponse, timeoutMs: number): void {
  if (!announcesBody(req.headers)) return;
  const deadline = new AbortController();
  deadlines.set(req, deadline.signal);
  const timer = setTimeout(() => {
    if (req.complete || req.socket.destroyed) return;
    deadline.abort(new ApiError(408, `The request body did not arrive within ${timeoutMs / 1000} s.`));
    if (!res.headersSent) return;
    if (res.writableFinished) req.socket.destroy();
    else res.once('finish', () => req.socket.destroy());
  }, timeoutMs);
  const stop = (): void => clearTimeout(timer);
  req.once('end', stop);
  req.socket.once('close', stop);
}

/** The request's body deadline (aborted with a 408 `ApiError` once passed), if it has one. */
export function bodyDeadline(req: IncomingMessage): AbortSignal | undefined {
  return deadlines.get(req);
}
