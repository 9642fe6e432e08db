import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../testing/buildTestApp.js';
import { HSTS_VALUE } from './headers.js';

/** Sends raw HTTP/1.1 bytes and answers the status line and headers of the response. */
function rawRequest(port: number, text: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
  });
}

describe('transport headers', () => {
  let app: FastifyInstance;
  let port: number;
  let proxied: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp());
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
    ({ app: proxied } = await buildTestApp({ env: { TRUST_PROXY: 'loopback' } }));
  });
  afterAll(async () => {
    await app?.close();
    await proxied?.close();
  });

  it('sends no HSTS over plain http, even when a client claims https (no trusted proxy)', async () => {
    const plain = await app.inject({ url: '/actions/blitz/csrf/token' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const claimed = await app.inject({ url: '/actions/blitz/csrf/token', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when a trusted proxy says the request came over https', async () => {
    const https = await proxied.inject({ url: '/actions/blitz/csrf/token', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const http = await proxied.inject({ url: '/actions/blitz/csrf/token', headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });

  it("forbids every frame the same way in both headers: X-Frame-Options DENY next to CSP frame-ancestors 'none'", async () => {
    const page = await app.inject({ url: '/' });
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it("answers requests Node's parser cannot read, and unreadable or too long addresses, in the one error shape (pages: the site's page)", async () => {
    const malformed = await rawRequest(port, 'POST /api/insights/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx');
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toEqual({ error: expect.any(String), code: 'bad-request' });
    const oversized = await rawRequest(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(oversized.status).toBe(431);
    expect(JSON.parse(oversized.body)).toEqual({ error: expect.any(String), code: 'headers-too-large' });
    const badCall = await app.inject({ url: '/api/survey-results/%E0%A4%A' });
    expect(badCall.statusCode).toBe(400);
    expect(badCall.json()).toEqual({ error: expect.any(String), code: 'FST_ERR_BAD_URL' });
    const badPage = await app.inject({ url: '/articles/%E0%A4%A' });
    expect(badPage.statusCode).toBe(400);
    expect(badPage.headers['content-type']).toMatch(/^text\/html/);
    expect(badPage.body).toContain('This address could not be read');
    const unknownCall = await app.inject({ method: 'POST', url: '/api/nothing-here', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unknownCall.statusCode).toBe(403); // CSRF first: nothing unknown is told apart from a refused call
    expect(unknownCall.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
  });

  it('refuses a request with two Host headers (400 JSON, over a real socket)', async () => {
    const response = await rawRequest(
      port,
      'GET /actions/blitz/csrf/token HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(response.status).toBe(400);
    expect(response.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(response.body.trim().split('\r\n').find((line) => line.startsWith('{')) ?? response.body)).toMatchObject({
      code: 'ambiguous-host',
    });
  });

  it('refuses a request without Host: HTTP/1.0 (which may omit it) and HTTP/1.1 (400, over a real socket)', async () => {
    const http10 = await rawRequest(port, 'GET / HTTP/1.0\r\n\r\n');
    expect(http10.status).toBe(400);
    expect(JSON.parse(http10.body.trim().split('\r\n').find((line) => line.startsWith('{')) ?? http10.body)).toMatchObject({ code: 'ambiguous-host' });
    const http11 = await rawRequest(port, 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(http11.status).toBe(400);
    const withHost = await rawRequest(port, 'GET /actions/blitz/csrf/token HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n');
    expect(withHost.status).toBe(200);
  });

  it('refuses two X-Forwarded-Host headers and accepts one Host', async () => {
    const twice = await rawRequest(
      port,
      'GET /actions/blitz/csrf/token HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: a.example\r\nX-Forwarded-Host: b.example\r\nConnection: close\r\n\r\n',
    );
    expect(twice.status).toBe(400);
    const once = await rawRequest(port, 'GET /actions/blitz/csrf/token HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(once.status).toBe(200);
  });
});
