/**
 * The only request content coding the site accepts, at the edge and in every service:
 * `Content-Encoding` absent or `identity`. Every other one, supported by zlib or not, is refused
 * with 415 before a byte of the body is read: no browser compresses what it sends (fetch, beacons
 * and forms never do), decoding would need a second limit on the decoded size (a small gzip body
 * can inflate a thousandfold) and, at the edge, re-framing before forwarding; one refusal is a
 * rule every service can rely on.
 */
export const ACCEPTED_REQUEST_CODING = 'identity';

/** Code of the JSON error of a refused coding. */
export const UNSUPPORTED_CODING_CODE = 'unsupported-content-encoding';

/** Whether a request announces a body (a `Content-Length` above 0, or a `Transfer-Encoding`). */
export function announcesBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** Whether a request carries a body in a coding other than identity (the one refused). */
export function hasCodedBody(headers: Record<string, string | string[] | undefined>): boolean {
  return announcesBody(headers) && !isIdentityCoding(headers['content-encoding']);
}

/** Whether a `Content-Encoding` header names only the identity coding (or is absent). */
export function isIdentityCoding(header: string | string[] | undefined): boolean {
  if (header === undefined) return true;
  const codings = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding.length > 0);
  return codings.every((coding) => coding === ACCEPTED_REQUEST_CODING);
}

/** The error a refused coding is answered with (415; `Accept-Encoding: identity` goes with it, RFC 7694). */
export class UnsupportedRequestCoding extends Error {
  readonly statusCode = 415;
  readonly code = UNSUPPORTED_CODING_CODE;
  constructor() {
    super('Request bodies are accepted without Content-Encoding (uncompressed) only');
    this.name = 'UnsupportedRequestCoding';
  }
}
