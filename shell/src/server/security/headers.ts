import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

export interface SecurityHeaderOptions {
  /** Origins the remotes are served from (scripts, styles, manifests). */
  remoteOrigins: string[];
  /** Further origins pages fetch from, as the slices' browser settings name them (e.g. every search node). */
  connectOrigins: string[];
}

/**
 * Security headers from helmet. The CSP allows exactly: our own origin, the configured remote
 * origins (manifests, scripts, styles) and the origins the slices' browser settings name (fetch). HSTS only on requests
 * that arrived over https (directly, or from a trusted proxy's `X-Forwarded-Proto`).
 */
export async function securityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  const remotes = [...new Set(options.remoteOrigins)];
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remotes],
        styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
        imgSrc: ["'self'", 'data:', ...remotes],
        fontSrc: ["'self'", ...remotes],
        connectSrc: ["'self'", ...new Set([...remotes, ...options.connectOrigins])],
        mediaSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    // `X-Frame-Options: DENY`, as `frame-ancestors 'none'` says (helmet's default SAMEORIGIN contradicted
    // it): browsers that know CSP follow frame-ancestors, older ones this header, and both refuse every frame.
    frameguard: { action: 'deny' },
    // Remote scripts come from other origins: they must be fetchable without CORP blocking.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    // Sent below, and only over https: over plain http a browser ignores it, and a site on
    // plain http (development, a misconfigured proxy) must not tell clients it is https-only.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
  });
}

/** helmet's default HSTS policy: 180 days, subdomains included. */
export const HSTS_VALUE = 'max-age=15552000; includeSubDomains';
