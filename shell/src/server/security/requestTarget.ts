import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** Error code of an absolute-form request for a host the site is not (the shell is no forward proxy). */
export const FOREIGN_TARGET_CODE = 'foreign-request-target';

/** `scheme://authority` at the start of an absolute-form target, and the rest (path and query). */
const ABSOLUTE_FORM = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/is;

/** Where `req.url` said another host than the site's: the plugin below refuses it. */
const FOREIGN_HOST = Symbol('khs.foreignTargetHost');
type MarkedRequest = IncomingMessage & { [FOREIGN_HOST]?: string };

/**
 * The site's hosts besides the request's own `Host`, lower case with `:port` where not default:
 * `ALLOWED_HOSTS` and the host of `PUBLIC_BASE_URL`.
 */
export interface OwnHosts {
  publicBaseUrl?: string;
  allowedHosts?: readonly string[];
}

/**
 * Fastify's `rewriteUrl`: an absolute-form request target (`POST http://host/api/x HTTP/1.1`, legal
 * HTTP/1.1, RFC 9112 §3.2.2) becomes the origin-form the routes and the proxy expect (`/api/x`),
 * so it is served like one. Its host is the request's host (the RFC: the target's host wins over
 * `Host`), which must be the site's: the `Host` the client sent (RFC 9112 §3.2: a client sends
 * the target's authority there too), an `ALLOWED_HOSTS` entry or `PUBLIC_BASE_URL`'s host. Any
 * other host, another scheme than http(s), or userinfo in the authority marks the request, which
 * `absoluteFormTargets` then refuses with 400. Origin-form and other targets are left as they are.
 */
export function originFormRewrite(ownHosts: OwnHosts = {}): (request: IncomingMessage) => string {
  const known = new Set(ownHosts.allowedHosts ?? []);
  if (ownHosts.publicBaseUrl) known.add(new URL(ownHosts.publicBaseUrl).host.toLowerCase());
  return (request) => {
    const target = request.url ?? '/';
    if (target.startsWith('/')) return target;
    const parts = ABSOLUTE_FORM.exec(target);
    if (!parts) return target;
    const [, scheme, authority, rest] = parts as unknown as [string, string, string, string];
    const host = authority.toLowerCase();
    const originForm = rest.startsWith('/') ? rest : `/${rest}`;
    const ownHost = host !== '' && !host.includes('@') && (host === request.headers.host?.toLowerCase() || known.has(host));
    if (/^https?$/i.test(scheme) && ownHost) request.headers.host = host;
    else (request as MarkedRequest)[FOREIGN_HOST] = authority;
    return originForm;
  };
}

/**
 * Refuses (400 JSON, before any body is read, connection closed) a request whose absolute-form target
 * named a host other than the site's (see `originFormRewrite`). Registered without encapsulation
 * so it covers every route.
 */
async function absoluteFormTargetsPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    const foreign = (request.raw as MarkedRequest)[FOREIGN_HOST];
    if (foreign === undefined) return;
    return reply
      .code(400)
      .header('connection', 'close')
      .header('cache-control', 'no-store')
      .send({ error: 'This site does not forward requests for other hosts', code: FOREIGN_TARGET_CODE });
  });
}

export const absoluteFormTargets = fastifyPlugin(absoluteFormTargetsPlugin, { name: 'khs-absolute-form-targets' });
