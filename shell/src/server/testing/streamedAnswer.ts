import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip } from 'node:zlib';

/** A GET on a real socket (no `inject`: a streamed answer must be read as it comes). */
export function getOverSocket(url: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => httpRequest(url, { headers }, resolve).on('error', reject).end());
}

/**
 * An answer's decoded body as it arrives: `first`, what came until it held `until` (read while the
 * rest may still be held by the server), then `rest()`, everything after it to the end.
 */
export async function decodedChunks(response: IncomingMessage, until: string): Promise<{ first: string; rest: () => Promise<string> }> {
  const encoding = response.headers['content-encoding'];
  const decoded = encoding === 'br' ? response.pipe(createBrotliDecompress()) : encoding === 'gzip' ? response.pipe(createGunzip()) : response;
  const iterator = decoded[Symbol.asyncIterator]();
  let first = '';
  while (!first.includes(until)) {
    const next = await iterator.next();
    if (next.done) throw new Error(`the answer ended before it held ${JSON.stringify(until)}`);
    first += String(next.value);
  }
  return {
    first,
    rest: async () => {
      let rest = '';
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest += String(next.value);
      return rest;
    },
  };
}
