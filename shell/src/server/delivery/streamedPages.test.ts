// Streamed pages (issue 37): the cache rule decided when a page's headers go (before its last
// island may be known), and each chunk flushed through the on-the-fly compression.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/buildTestApp.js';
import { decodedChunks, getOverSocket } from '../testing/streamedAnswer.js';
import { markPageStart, PRIVATE_CACHE_CONTROL, SHARED_PAGE_CACHE_CONTROL, STREAMED_PAGE_CACHE_CONTROL, type PageStartFacts } from './pageCache.js';

/** More than the compression threshold, so the head alone would be compressed (and held) if not flushed. */
const HEAD = `<!doctype html><html><head><title>t</title></head><body><header>${'the header '.repeat(200)}</header><div class="island">`;
const TAIL = '<p>the slow island</p></div></body></html>';

describe('streamed pages: cache headers and flushing', () => {
  let app: FastifyInstance;
  let origin: string;
  /** Releases the tail of the streamed page now being sent. */
  let releaseTail: () => void = () => {};

  beforeAll(async () => {
    const page = (path: string, start: PageStartFacts, streamed: boolean) => async (feature: FastifyInstance) => {
      feature.get(path, { config: { pageCache: 'shared' } }, async (_request, reply) => {
        markPageStart(reply, start);
        reply.type('text/html; charset=utf-8');
        if (!streamed) return `${HEAD}${TAIL}`;
        const tail = new Promise<void>((resolve) => (releaseTail = resolve));
        return Readable.from(
          (async function* () {
            yield Buffer.from(HEAD);
            await tail;
            yield Buffer.from(TAIL);
          })(),
          { objectMode: false },
        );
      });
    };
    const shell = await buildTestApp({
      features: [
        { plugin: page('/test/whole', { streamed: false, degraded: false, failingRemotes: [] }, false) },
        { plugin: page('/test/whole-degraded', { streamed: false, degraded: true, failingRemotes: [] }, false) },
        { plugin: page('/test/streamed', { streamed: true, degraded: false, failingRemotes: [] }, true) },
        { plugin: page('/test/streamed-failing-remote', { streamed: true, degraded: false, failingRemotes: ['mf-x'] }, true) },
      ],
    });
    app = shell.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const get = (path: string, headers: Record<string, string> = {}) => getOverSocket(`${origin}${path}`, headers);

  /** The decoded body as it arrives: the first decoded bytes, then the rest once `releaseTail` ran. */
  const headThenRest = (response: IncomingMessage) => decodedChunks(response, '<div class="island">');

  it('a page whose islands all rendered within the head budget: whole, shared, with its ETag, and a 304 for it', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/whole' });
    expect(response.headers['cache-control']).toBe(SHARED_PAGE_CACHE_CONTROL);
    expect(response.headers.etag).toMatch(/^W\//);
    expect(response.headers['x-accel-buffering']).toBeUndefined();
    const again = await app.inject({ method: 'GET', url: '/test/whole', headers: { 'if-none-match': String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('a page with a failed island within the head budget: private, no ETag (as before)', async () => {
    const response = await app.inject({ method: 'GET', url: '/test/whole-degraded' });
    expect(response.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(response.headers.etag).toBeUndefined();
  });

  it.each(['br', 'gzip', 'identity'])(
    'a page streamed past the head budget (%s): a short shared lifetime, no ETag, unbuffered by nginx, its head readable before its last island',
    async (encoding) => {
      const response = await get('/test/streamed', { 'accept-encoding': encoding });
      expect(response.headers['cache-control']).toBe(STREAMED_PAGE_CACHE_CONTROL);
      expect(response.headers.etag).toBeUndefined();
      expect(response.headers['x-accel-buffering']).toBe('no');
      expect(response.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      // The head arrives (decoded) while the tail is still held: each chunk was flushed.
      const { first, rest } = await headThenRest(response);
      expect(first).toContain('<header>the header');
      expect(first).not.toContain('the slow island');
      releaseTail();
      expect(`${first}${await rest()}`).toBe(`${HEAD}${TAIL}`);
    },
  );

  it('answers HEAD for a streamed page with its headers and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/test/streamed' });
    releaseTail();
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(STREAMED_PAGE_CACHE_CONTROL);
    expect(response.body).toBe('');
  });

  it('a page holding an island of a remote the shell knows to be failing: private from its first byte, no ETag', async () => {
    const response = await get('/test/streamed-failing-remote', { 'accept-encoding': 'br' });
    expect(response.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['x-accel-buffering']).toBe('no');
    const { rest } = await headThenRest(response);
    releaseTail();
    await rest();
  });
});
