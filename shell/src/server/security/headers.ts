import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

export interface SecurityHeaderOptions {
  /** Origins the remotes are served from (scripts, styles, manifests). */
  remoteOrigins: string[];
  /** Origin browsers send search requests to. */
  searchOrigin: string;
}

/**
 * Security headers from helmet. The CSP allows exactly: our own origin, the configured remote
 * origins (manifests, scripts, styles) and the search server (fetch).
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
        connectSrc: ["'self'", ...remotes, options.searchOrigin],
        mediaSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    // Remote scripts come from other origins: they must be fetchable without CORP blocking.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
}
