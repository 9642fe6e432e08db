import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { csrfSecretOf } from './csrf.js';

/** Length of a visitor id: 22 base64url characters (132 bits of an HMAC). */
export const VISITOR_ID_LENGTH = 22;

/**
 * The anonymous visitor's id for `purpose` (a service's declared `visitorIdPurpose`), derived from the CSRF secret
 * cookie: HMAC-SHA256(cookie secret, purpose + secret). One cookie is the visitor identity —
 * a browser cannot keep a valid CSRF token and drop its voter identity, because they are the
 * same secret. The id reveals nothing about the secret, so a stored id cannot be turned back
 * into a cookie. Undefined without a valid secret cookie (the CSRF check refuses such posts).
 */
export function visitorIdOf(request: FastifyRequest, purpose: string, cookieSecret: string): string | undefined {
  const secret = csrfSecretOf(request);
  if (!secret) return undefined;
  return createHmac('sha256', cookieSecret).update(`${purpose}\u0000${secret}`).digest('base64url').slice(0, VISITOR_ID_LENGTH);
}
