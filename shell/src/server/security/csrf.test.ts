import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, fetchCsrf } from '../testing/buildTestApp.js';

describe('CSRF protection', () => {
  let app: FastifyInstance;
  beforeEach(async () => {
    ({ app } = await buildTestApp({
      features: [
        {
          plugin: async (instance) => {
            instance.post('/api/echo', async (request) => ({ received: request.body }));
            instance.post('/api/beacon', { config: { csrfExempt: true } }, async () => ({ ok: true }));
          },
        },
      ],
    }));
  });
  afterEach(() => app.close());

  it('answers a plain-text token and binds it to the visitor with a cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/actions/blitz/csrf/token' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body.length).toBeGreaterThan(20);
    expect(String(response.headers['set-cookie'])).toMatch(/HttpOnly/i);
  });

  it('marks the cookie Secure only when the site is reached over https through a trusted proxy', async () => {
    const plain = await app.inject({ method: 'GET', url: '/actions/blitz/csrf/token' });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
    // TRUST_PROXY is off by default: anyone's X-Forwarded-Proto is ignored.
    const forged = await app.inject({ method: 'GET', url: '/actions/blitz/csrf/token', headers: { 'x-forwarded-proto': 'https' } });
    expect(String(forged.headers['set-cookie'])).not.toMatch(/Secure/);
    const { app: behindProxy } = await buildTestApp({ env: { TRUST_PROXY: 'loopback' } });
    try {
      const https = await behindProxy.inject({ method: 'GET', url: '/actions/blitz/csrf/token', headers: { 'x-forwarded-proto': 'https' } });
      expect(String(https.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await behindProxy.close();
    }
  });

  it('accepts a POST with the token and its cookie', async () => {
    const { token, cookie } = await fetchCsrf(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'x-csrf-token': token, cookie, 'content-type': 'application/json' },
      payload: { a: 1 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { a: 1 } });
  });

  it.each([
    ['no token', (_token: string, cookie: string) => ({ cookie })],
    ['a wrong token', (_token: string, cookie: string) => ({ cookie, 'x-csrf-token': 'forged' })],
    ['a token without its cookie', (token: string) => ({ 'x-csrf-token': token })],
  ])('rejects a POST with %s: 403 JSON', async (_label, headers) => {
    const { token, cookie } = await fetchCsrf(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { ...headers(token, cookie), 'content-type': 'application/json' },
      payload: { a: 1 },
    });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toMatchObject({ error: expect.any(String) });
  });

  it('does not accept a token bound to another visitor', async () => {
    const mine = await fetchCsrf(app);
    const theirs = await fetchCsrf(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/echo',
      headers: { 'x-csrf-token': theirs.token, cookie: mine.cookie, 'content-type': 'application/json' },
      payload: {},
    });
    expect(response.statusCode).toBe(403);
  });

  it('lets an exempt route through without a token', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/beacon', payload: {} });
    expect(response.statusCode).toBe(200);
  });
});
