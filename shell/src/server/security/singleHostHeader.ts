import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/** How often `name` occurs in a request's raw header list. */
export function headerCount(rawHeaders: readonly string[], name: string): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) count += 1;
  }
  return count;
}

/**
 * Refuses (400 JSON, before any body is read) a request without a `Host` header (HTTP/1.0 may
 * omit it, and Node lets it through; HTTP/1.1 without one Node refuses itself), with more than one,
 * or with more than one `X-Forwarded-Host`: Node keeps the first and drops the rest, so a proxy and
 * the shell could disagree on which host the request is for.
 */
async function singleHostHeaderPlugin(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw.rawHeaders;
    if (headerCount(raw, 'host') !== 1 || headerCount(raw, 'x-forwarded-host') > 1) {
      return reply
        .code(400)
        .header('connection', 'close')
        .header('cache-control', 'no-store')
        .send({ error: 'A request must carry exactly one Host header', code: 'ambiguous-host' });
    }
  });
}

/** Registered without encapsulation so it covers every route. */
export const singleHostHeader = fastifyPlugin(singleHostHeaderPlugin, { name: 'khs-single-host-header' });
