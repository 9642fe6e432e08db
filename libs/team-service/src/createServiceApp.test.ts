import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createServiceApp } from './createServiceApp.js';

/** Writes `raw` on a fresh socket to the app and reads everything it answers until it closes. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('createServiceApp', () => {
  it('answers /health with the service name, never cached', async () => {
    const app = createServiceApp({ name: 'notes' });
    const response = await app.inject({ url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ status: 'ok', service: 'notes' });
    await app.close();
  });

  it('answers 503 on /health when the storage check fails', async () => {
    const app = createServiceApp({ name: 'notes', checkStorage: async () => Promise.reject(new Error('down')) });
    const response = await app.inject({ url: '/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', service: 'notes' });
    await app.close();
  });

  it('answers JSON errors: 404 for unknown paths, 400 for malformed JSON, 413 beyond the body limit, 500 without details', async () => {
    const app = createServiceApp({ name: 'notes', bodyLimit: 100 });
    app.post('/echo', async (request) => request.body);
    app.get('/boom', async () => {
      throw new Error('secret detail');
    });
    const notFound = await app.inject({ url: '/nope' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ error: 'Not found', code: 'not-found' });
    const malformed = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: expect.any(String), code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    const tooLarge = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(200) }) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ error: expect.any(String), code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    const boom = await app.inject({ url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ error: 'Internal server error', code: 'internal-error' });
    await app.close();
  });

  it("answers the router's own errors in the same shape: 400 for a path that is not valid URL encoding, 414 for a parameter over maxParamLength", async () => {
    const app = createServiceApp({ name: 'notes' });
    app.get('/notes/:id', async () => ({ ok: true }));
    const badUrl = await app.inject({ url: '/notes/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.headers['content-type']).toMatch(/^application\/json/);
    expect(badUrl.json()).toEqual({ error: expect.any(String), code: 'FST_ERR_BAD_URL' });
    const tooLong = await app.inject({ url: `/notes/${'x'.repeat(300)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toEqual({ error: expect.any(String), code: 'FST_ERR_MAX_PARAM_LENGTH' });
    await app.close();
  });

  it('answers 415 JSON (Accept-Encoding: identity) for a compressed body, before reading it; identity passes', async () => {
    const app = createServiceApp({ name: 'notes' });
    app.post('/echo', async (request) => request.body);
    const gzipped = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: gzipSync('{"a":1}') });
    expect(gzipped.statusCode).toBe(415);
    expect(gzipped.headers['accept-encoding']).toBe('identity');
    expect(gzipped.json()).toEqual({ error: expect.stringContaining('Content-Encoding'), code: 'unsupported-content-encoding' });
    const plain = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, payload: '{"a":1}' });
    expect(plain.json()).toEqual({ a: 1 });
    await app.close();
  });

  it("answers what Node's parser cannot read in the same shape and closes: a malformed request 400, headers too large 431", async () => {
    const app = createServiceApp({ name: 'notes' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as net.AddressInfo;
      const malformed = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
      expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
      expect(malformed).toMatch(/\r\nContent-Type: application\/json/);
      expect(bodyOf(malformed)).toEqual({ error: 'The request could not be read', code: 'bad-request' });
      const oversized = await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(oversized).toMatch(/^HTTP\/1\.1 431 /);
      expect(bodyOf(oversized)).toEqual({ error: expect.any(String), code: 'headers-too-large' });
    } finally {
      await app.close();
    }
  });
});
