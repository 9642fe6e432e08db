// The headers of a forwarded call, both ways: what the edge drops and adds on the way to a team
// service, and the hop-by-hop headers it keeps from the visitor on the way back.
import type { FastifyRequest } from 'fastify';
import type { FastifyReplyFromHooks } from '@fastify/reply-from';
import { EDGE_KEY_HEADER, LINK_ORIGIN_HEADER, VISITOR_ID_HEADER } from '@khs/team-service/edge';
import { visitorIdOf } from '../security/visitorIdentity.js';

/**
 * Client headers never forwarded: the visitor's cookies and token stay at the edge; edge headers
 * are the edge's to set; the body's framing is the edge's own (it forwards the body it read, with
 * its length). `Expect: 100-continue` was met here (the shell's server answered `100 Continue` and
 * read the whole body): nothing is left to expect of the service (undici refuses the header).
 */
const DROPPED_REQUEST_HEADERS = [
  'cookie',
  'x-csrf-token',
  EDGE_KEY_HEADER,
  VISITOR_ID_HEADER,
  LINK_ORIGIN_HEADER,
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'expect',
  // The trace context is the edge's to send (its own span's, with tracing on), never a visitor's.
  'traceparent',
  'tracestate',
];

/**
 * Hop-by-hop headers of the service's answer (RFC 9110 7.6.1): they describe the proxy's connection
 * to the service, not the visitor's. Passed on, a service's `Connection: keep-alive` would override
 * the visitor's own `Connection: close` (Node then keeps the socket open).
 */
const HOP_BY_HOP_RESPONSE_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

/** The service's answer headers without the hop-by-hop ones (and those its `Connection` header names). */
export function endToEndHeaders<T extends Record<string, unknown>>(headers: T): T {
  const named = typeof headers.connection === 'string' ? headers.connection.split(',').map((name) => name.trim().toLowerCase()) : [];
  const kept = { ...headers };
  for (const name of [...HOP_BY_HOP_RESPONSE_HEADERS, ...named]) delete kept[name];
  return kept;
}

/** What the edge adds to a forwarded request besides the client's own headers. */
export interface EdgeHeaders {
  /** The service's own edge key, sent with every forwarded request. */
  edgeKey: string;
  /** The shell's `COOKIE_SECRET`: derives the visitor id. */
  cookieSecret: string;
  /** Purpose of the visitor id forwarded in `x-khs-visitor-id`. Unset: none is forwarded. */
  visitorIdPurpose?: string;
  /** Resolves the origin absolute links must use (`x-khs-link-origin`). Unset: none is forwarded. */
  linkOrigin?: (request: FastifyRequest) => string;
}

/** The headers a route forwards: the client's without the dropped ones, plus the edge's own (edge key, visitor id, link origin). */
export function forwardedHeaders({ edgeKey, cookieSecret, visitorIdPurpose, linkOrigin }: EdgeHeaders): NonNullable<FastifyReplyFromHooks['rewriteRequestHeaders']> {
  return (request, headers) => {
    const forwarded = { ...headers };
    for (const name of DROPPED_REQUEST_HEADERS) delete forwarded[name];
    forwarded['x-forwarded-for'] = request.ip;
    forwarded[EDGE_KEY_HEADER] = edgeKey;
    if (visitorIdPurpose) {
      const visitorId = visitorIdOf(request as FastifyRequest, visitorIdPurpose, cookieSecret);
      if (visitorId) forwarded[VISITOR_ID_HEADER] = visitorId;
    }
    if (linkOrigin) forwarded[LINK_ORIGIN_HEADER] = linkOrigin(request as FastifyRequest);
    return forwarded;
  };
}
