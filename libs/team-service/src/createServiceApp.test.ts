import { describe, expect, it } from 'vitest';
import { createServiceApp } from './createServiceApp.js';

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
    expect(notFound.json()).toEqual({ error: 'Not found' });
    const malformed = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: expect.any(String) });
    const tooLarge = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ a: 'x'.repeat(200) }) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ error: expect.any(String) });
    const boom = await app.inject({ url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.json()).toEqual({ error: 'Internal server error' });
    await app.close();
  });
});
