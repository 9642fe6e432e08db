import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/** Code of the JSON error of a request refused for too many of its address's requests in flight. */
export const TOO_MANY_IN_FLIGHT_CODE = 'too-many-in-flight';

/** Refused because the client address already has `limit` requests of this kind open. */
export class TooManyInFlight extends Error {
  readonly statusCode = 429;
  readonly code = TOO_MANY_IN_FLIGHT_CODE;
  constructor(limit: number) {
    super(`Too many requests from your address at once (at most ${limit}); try again when one has been answered`);
    this.name = 'TooManyInFlight';
  }
}

/**
 * Counts the requests each client address (`request.ip`) has in flight, from their headers until
 * their answer is sent or their connection closes, and refuses (429 `TooManyInFlight`,
 * `Retry-After: 1`) one that would make more than `limit`. One counter per use (e.g. per proxied
 * service): it keeps one address from holding every connection of it. Returns the route's
 * `onRequest` hook and, for tests and metrics, how many requests an address has open.
 */
export function inFlightPerAddress(limit: number): { onRequest: onRequestHookHandler; openRequestsOf(address: string): number } {
  const open = new Map<string, number>();
  const release = (address: string) => {
    const count = (open.get(address) ?? 1) - 1;
    if (count <= 0) open.delete(address);
    else open.set(address, count);
  };
  const onRequest = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const address = request.ip;
    const count = open.get(address) ?? 0;
    if (count >= limit) {
      reply.header('retry-after', '1');
      done(new TooManyInFlight(limit));
      return;
    }
    open.set(address, count + 1);
    // 'close' comes once the answer was sent, or when the connection went away before it.
    reply.raw.once('close', () => release(address));
    done();
  };
  return { onRequest: onRequest as onRequestHookHandler, openRequestsOf: (address) => open.get(address) ?? 0 };
}
