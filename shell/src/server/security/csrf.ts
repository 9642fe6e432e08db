import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyPlugin from 'fastify-plugin';

/** Path of the token call (specification point 7). */
export const CSRF_TOKEN_PATH = '/actions/blitz/csrf/token';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opt a state-changing route out of the CSRF check (only for cross-origin beacons). */
    csrfExempt?: boolean;
  }
}

/**
 * CSRF protection: `GET /actions/blitz/csrf/token` answers a plain-text token bound to the
 * visitor by a signed secret cookie; every state-changing request must send it back as
 * `X-CSRF-Token`, else 403 with a JSON error. Needs `@fastify/cookie` registered first.
 */
async function csrfProtectionPlugin(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCsrf, {
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'lax', path: '/', secure: 'auto' },
    getToken: (request) => request.headers['x-csrf-token'] as string | undefined,
  });

  app.get(CSRF_TOKEN_PATH, async (_request, reply) => {
    const token = await reply.generateCsrf();
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(token);
  });

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (!UNSAFE_METHODS.has(request.method) || request.routeOptions.config?.csrfExempt) {
      done();
      return;
    }
    app.csrfProtection(request, reply, done);
  });
}

/** Registered without encapsulation so the check covers every route of the app. */
export const csrfProtection = fastifyPlugin(csrfProtectionPlugin, { name: 'khs-csrf-protection' });
