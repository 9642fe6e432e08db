import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Name of the signed, httpOnly cookie that identifies a voting browser. */
export const VOTER_COOKIE_NAME = 'khs_voter';
/** How long a browser keeps its voter id (seconds): one year. */
const VOTER_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const VOTER_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The browser's voter id from its signed `khs_voter` cookie. Without a cookie (or with a
 * tampered one) a new random id is made and set, so the first submission identifies the browser.
 */
export function voterIdFor(request: FastifyRequest, reply: FastifyReply): string {
  const raw = request.cookies[VOTER_COOKIE_NAME];
  if (raw) {
    const unsigned = request.unsignCookie(raw);
    if (unsigned.valid && unsigned.value && VOTER_ID_PATTERN.test(unsigned.value)) return unsigned.value;
  }
  const voterId = randomBytes(16).toString('base64url');
  reply.setCookie(VOTER_COOKIE_NAME, voterId, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: VOTER_COOKIE_MAX_AGE_SECONDS,
  });
  return voterId;
}
