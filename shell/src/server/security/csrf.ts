import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import CsrfTokens from '@fastify/csrf';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyPlugin from 'fastify-plugin';
import { DEFAULT_CALL_URLS } from 'contracts';

/** Path of the token call (specification point 7). */
export const CSRF_TOKEN_PATH = DEFAULT_CALL_URLS.csrfToken;
/** Name of the signed cookie holding the visitor's CSRF secret (the visitor identity). */
export const CSRF_COOKIE_NAME = '_csrf';
/**
 * Lifetime of the secret cookie (seconds): one year. The secret is also the anonymous visitor
 * identity (one vote per browser, see `visitorIdentity.ts`), so it must outlive a browser session.
 */
export const CSRF_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Token options shared by the plugin and `isValidCsrfToken`, so both verify alike. */
const TOKEN_OPTIONS = {};
const tokens = new CsrfTokens(TOKEN_OPTIONS);

/** The visitor's CSRF secret from its signed cookie; undefined when absent or tampered with. */
export function csrfSecretOf(request: FastifyRequest): string | undefined {
  const raw = request.cookies[CSRF_COOKIE_NAME];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : undefined;
}

/**
 * Whether `token` belongs to the visitor's secret cookie: the same check as the plugin's hook,
 * usable where the token arrives inside a streamed body (a form page's token field).
 */
export function isValidCsrfToken(request: FastifyRequest, token: string | undefined): boolean {
  const secret = csrfSecretOf(request);
  return Boolean(secret && token && tokens.verify(secret, token));
}

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
    cookieKey: CSRF_COOKIE_NAME,
    cookieOpts: { signed: true, httpOnly: true, sameSite: 'lax', path: '/', secure: 'auto', maxAge: CSRF_COOKIE_MAX_AGE_SECONDS },
    csrfOpts: TOKEN_OPTIONS,
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
