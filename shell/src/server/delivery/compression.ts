// Compressed, cacheable delivery (issue 14): HTML and API answers compressed on the fly, build
// outputs sent precompressed (the build writes `x.js.br` / `x.js.gz`, tooling/rspack-preset).
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses every answer the browser accepts compressed (brotli, else gzip) unless it already
 * is (precompressed static files). Brotli at quality 4 (the plugin's default): on-the-fly
 * quality 11 would cost far more CPU per page than it saves in bytes. Answers only: request bodies
 * are never decompressed (the plugin's request decompression is off), a compressed one is refused
 * with 415 (`security/requestBodies.ts`). A streamed answer (a page whose islands follow its head)
 * is flushed at each chunk it writes (`flush`): the compressor would otherwise hold the head until
 * it had gathered enough bytes, and the browser would wait for the slowest island after all. A
 * string answer is one write, so this costs nothing there.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: { flush: zlibConstants.BROTLI_OPERATION_FLUSH },
    zlibOptions: { flush: zlibConstants.Z_SYNC_FLUSH },
  });
}

/**
 * @fastify/static options for the client runtime's build outputs: the precompressed copy when the
 * browser accepts it, and `Vary: accept-encoding` so caches keep one copy per encoding.
 */
export const precompressedStaticOptions = {
  preCompressed: true,
  setHeaders(reply: FastifyReply) {
    reply.header('Vary', 'accept-encoding');
  },
};
